"""Settings from the environment and .env: each rule, each error message, .env discovery, no key
leaks.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from handwritten_agent.config import PRESETS, ConfigError, Settings, load_settings

SECRET = "sk-test-5f1e2d3c4b5a69788796"


@pytest.fixture
def isolated(tmp_path, monkeypatch) -> Path:
    """Run in an empty temp directory so no real .env above the repo is found."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def settings(**env: str) -> Settings:
    return load_settings(env, dotenv=False)


def config_error(**env: str) -> ConfigError:
    with pytest.raises(ConfigError) as info:
        settings(**env)
    return info.value


# --- the rules ------------------------------------------------------------------------------


def test_nothing_set_is_offline():
    s = settings()
    assert s.backend == "offline"
    assert s.model == "course-sim"
    assert s.base_url is None and s.api_key is None
    assert (s.timeout, s.max_retries) == (60.0, 3)


def test_empty_values_count_as_unset():
    assert settings(LLM_PROVIDER="", LLM_BASE_URL="  ", LLM_MODEL="").backend == "offline"


def test_provider_offline_wins_over_an_endpoint():
    s = settings(
        LLM_PROVIDER="offline",
        LLM_BASE_URL="https://api.deepseek.com/v1",
        LLM_API_KEY=SECRET,
        LLM_MODEL="deepseek-chat",
    )
    assert s.backend == "offline" and s.base_url is None and s.api_key is None


def test_provider_local():
    s = settings(LLM_PROVIDER="local")
    assert s.backend == "local" and s.model is None and s.base_url is None


def test_provider_local_with_a_gguf_path(tmp_path):
    gguf = tmp_path / "other.gguf"
    gguf.write_bytes(b"GGUF")
    assert settings(LLM_PROVIDER="LOCAL", LLM_MODEL=str(gguf)).model == str(gguf)


def test_provider_local_with_a_missing_gguf_names_llm_model(tmp_path):
    error = config_error(LLM_PROVIDER="local", LLM_MODEL=str(tmp_path / "missing.gguf"))
    assert error.variable == "LLM_MODEL"
    assert "LLM_MODEL" in str(error) and "model fetch" in str(error)


def test_preset_fills_base_url_and_model():
    s = settings(LLM_PROVIDER="deepseek", LLM_API_KEY=SECRET)
    assert s.backend == "remote" and s.provider == "deepseek"
    assert s.base_url == "https://api.deepseek.com/v1"
    assert s.model == "deepseek-chat"
    assert s.api_key == SECRET


def test_variables_override_the_preset():
    s = settings(
        LLM_PROVIDER="qwen",
        LLM_API_KEY=SECRET,
        LLM_MODEL="qwen-max",
        LLM_BASE_URL="https://dashscope-intl.aliyuncs.com/compatible-mode/v1/",
    )
    assert s.model == "qwen-max"
    assert (
        s.base_url == "https://dashscope-intl.aliyuncs.com/compatible-mode/v1"
    )  # trailing slash dropped


def test_keyless_presets_need_no_key():
    s = settings(LLM_PROVIDER="ollama")
    assert (s.backend, s.base_url, s.model, s.api_key) == (
        "remote",
        "http://127.0.0.1:11434/v1",
        "qwen2.5:7b",
        None,
    )


def test_base_url_alone_with_model_is_remote():
    s = settings(LLM_BASE_URL="http://127.0.0.1:8765/v1", LLM_MODEL="course-sim")
    assert (s.backend, s.provider, s.model) == ("remote", None, "course-sim")


def test_base_url_on_a_known_host_picks_up_the_preset():
    s = settings(LLM_BASE_URL="https://api.deepseek.com/v1", LLM_API_KEY=SECRET)
    assert s.provider == "deepseek" and s.model == "deepseek-chat"


def test_timeout_and_retries_are_read():
    s = settings(LLM_TIMEOUT="2.5", LLM_MAX_RETRIES="0")
    assert (s.timeout, s.max_retries) == (2.5, 0)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_is_usable(name):
    preset = PRESETS[name]
    assert preset.base_url.startswith(("http://", "https://"))
    env = {"LLM_PROVIDER": name}
    if preset.requires_key:
        env["LLM_API_KEY"] = SECRET
    if preset.default_model is None:
        env["LLM_MODEL"] = "some-model"
    s = settings(**env)
    assert s.backend == "remote" and s.provider == name and s.model


# --- the error messages name the variable to fix ----------------------------------------------


def test_base_url_without_model_names_llm_model():
    error = config_error(LLM_BASE_URL="http://127.0.0.1:9999/v1")
    assert error.variable == "LLM_MODEL"
    assert "LLM_MODEL" in str(error) and "http://127.0.0.1:9999/v1/models" in str(error)


def test_preset_without_default_model_names_llm_model():
    error = config_error(LLM_PROVIDER="vllm")
    assert error.variable == "LLM_MODEL" and "vLLM" in str(error)


@pytest.mark.parametrize(
    "provider", ["openai", "deepseek", "qwen", "moonshot", "zhipu", "siliconflow"]
)
def test_key_requiring_provider_without_key_names_llm_api_key(provider):
    error = config_error(LLM_PROVIDER=provider)
    assert error.variable == "LLM_API_KEY"
    assert "LLM_API_KEY" in str(error) and PRESETS[provider].title in str(error)


@pytest.mark.parametrize(
    "url", ["ftp://example.com/v1", "api.deepseek.com/v1", "http://", "localhost:11434"]
)
def test_non_http_url_names_llm_base_url(url):
    error = config_error(LLM_BASE_URL=url, LLM_MODEL="m")
    assert error.variable == "LLM_BASE_URL"
    assert "LLM_BASE_URL" in str(error) and "http" in str(error)


def test_url_with_endpoint_path_names_the_api_root():
    error = config_error(LLM_BASE_URL="http://127.0.0.1:11434/v1/chat/completions", LLM_MODEL="m")
    assert error.variable == "LLM_BASE_URL"
    assert "http://127.0.0.1:11434/v1" in str(error)


def test_unknown_provider_lists_valid_names():
    error = config_error(LLM_PROVIDER="deepsek")
    assert error.variable == "LLM_PROVIDER"
    for name in ("offline", "local", *PRESETS):
        assert name in str(error)


@pytest.mark.parametrize("value", ["abc", "0", "-5", "nan", "inf"])
def test_bad_timeout_names_llm_timeout(value):
    error = config_error(LLM_TIMEOUT=value)
    assert (
        error.variable == "LLM_TIMEOUT"
        and "LLM_TIMEOUT" in str(error)
        and repr(value) in str(error)
    )


@pytest.mark.parametrize("value", ["three", "-1", "2.5", "99"])
def test_bad_max_retries_names_llm_max_retries(value):
    error = config_error(LLM_MAX_RETRIES=value)
    assert error.variable == "LLM_MAX_RETRIES" and "LLM_MAX_RETRIES" in str(error)


@pytest.mark.parametrize("stray", ["LLM_API_KEY", "LLM_MODEL"])
def test_half_set_without_endpoint_names_llm_base_url(stray):
    error = config_error(**{stray: "x-value"})
    assert error.variable == "LLM_BASE_URL"
    assert "LLM_PROVIDER" in str(error) and stray in str(error)
    assert "x-value" not in str(error)  # never echo a value that may be a key


def test_errors_never_contain_the_key():
    for env in (
        {"LLM_PROVIDER": "nope", "LLM_API_KEY": SECRET},
        {"LLM_BASE_URL": "ftp://x", "LLM_API_KEY": SECRET},
        {"LLM_BASE_URL": "http://127.0.0.1:1/v1", "LLM_API_KEY": SECRET},
        {"LLM_API_KEY": SECRET},
    ):
        with pytest.raises(ConfigError) as info:
            settings(**env)
        assert SECRET not in str(info.value)


# --- .env discovery ---------------------------------------------------------------------------


def test_dotenv_found_from_a_subdirectory(isolated, monkeypatch):
    (isolated / ".env").write_text(
        f"LLM_PROVIDER=deepseek\nLLM_API_KEY={SECRET}\n", encoding="utf-8"
    )
    notebooks = isolated / "notebooks" / "deeper"
    notebooks.mkdir(parents=True)
    monkeypatch.chdir(notebooks)
    s = load_settings({})
    assert s.backend == "remote" and s.provider == "deepseek" and s.api_key == SECRET
    assert s.env_file == str(isolated / ".env")


def test_environment_wins_over_dotenv(isolated):
    (isolated / ".env").write_text(
        f"LLM_PROVIDER=deepseek\nLLM_API_KEY={SECRET}\nLLM_TIMEOUT=5\n", encoding="utf-8"
    )
    s = load_settings({"LLM_PROVIDER": "offline"})
    assert s.backend == "offline"
    assert s.timeout == 5.0  # variables not in the environment still come from .env
    s = load_settings({"LLM_MODEL": "deepseek-reasoner"})
    assert s.provider == "deepseek" and s.model == "deepseek-reasoner"


def test_dotenv_false_ignores_the_file(isolated):
    (isolated / ".env").write_text("LLM_PROVIDER=nonsense\n", encoding="utf-8")
    assert load_settings({}, dotenv=False).backend == "offline"
    with pytest.raises(ConfigError):
        load_settings({})


def test_dotenv_errors_say_which_file(isolated):
    (isolated / ".env").write_text("LLM_TIMEOUT=soon\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="LLM_TIMEOUT") as info:
        load_settings({})
    assert str(isolated / ".env") in str(info.value)


def test_env_example_parses_to_offline_and_each_block_is_valid(isolated):
    example = Path(__file__).resolve().parents[1] / ".env.example"
    text = example.read_text(encoding="utf-8")
    (isolated / ".env").write_text(text, encoding="utf-8")
    assert load_settings({}).backend == "offline"
    for name in PRESETS:
        assert f"# LLM_PROVIDER={name}" in text, f".env.example has no commented block for {name}"
    assert "# LLM_PROVIDER=local" in text


# --- the key never shows ------------------------------------------------------------------------


def test_key_not_in_repr_or_banner():
    s = settings(LLM_PROVIDER="openai", LLM_API_KEY=SECRET)
    assert SECRET not in repr(s) and SECRET not in str(s)
    assert SECRET not in s.banner()


def test_credentials_in_url_not_in_banner():
    s = settings(LLM_BASE_URL="https://user:hunter2secret@llm.example.com/v1", LLM_MODEL="m")
    assert "hunter2secret" not in s.banner()
    assert "llm.example.com" in s.banner()


def test_banner_says_backend_url_and_model():
    remote = settings(LLM_PROVIDER="deepseek", LLM_API_KEY=SECRET).banner()
    assert (
        "remote" in remote and "https://api.deepseek.com/v1" in remote and "deepseek-chat" in remote
    )
    assert "\n" not in remote
    offline = settings().banner()
    assert "offline" in offline and "course-sim" in offline and "不是 LLM" in offline
    local = settings(LLM_PROVIDER="local").banner()
    assert "local" in local and "llama.cpp" in local


def test_settings_are_frozen():
    s = settings()
    with pytest.raises(AttributeError):
        s.backend = "remote"  # type: ignore[misc]


def test_local_backend_waits_longer_by_default_but_honours_llm_timeout():
    assert load_settings({"LLM_PROVIDER": "local"}, dotenv=False).timeout == 600
    assert load_settings({"LLM_PROVIDER": "local", "LLM_TIMEOUT": "30"}, dotenv=False).timeout == 30
    assert load_settings({}, dotenv=False).timeout == 60
