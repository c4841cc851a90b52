"""Names in an English request, by their capitals: a name of two or more capitalised words goes to
the parameter whose own name ends with its last word ("the Science Museum" → ``museum_name``), and
the one name left, if only one, to the person parameter ("for John Doe" → ``visitor_name``). Two
names that could be the person's, or a name no parameter's noun ends, are asked about, never
guessed (and never one call per name)."""

from __future__ import annotations

from datetime import datetime

import pytest

from handwritten_agent.course.offline.simulator import CourseSimulator
from handwritten_agent.course.offline.simulator.arguments.bare import english_names
from tests.simkit import fn, run_request

SIMULATOR = CourseSimulator(now=datetime(2026, 3, 12, 14, 30))

MUSEUM = fn(
    "book_ticket",
    "Book a museum ticket",
    properties={
        "museum_name": {"type": "string", "description": "The name of the museum."},
        "visitor_name": {"type": "string", "description": "The name of the visitor."},
    },
)
HOTEL = fn(
    "reserve_room",
    "Reserve a hotel room",
    properties={
        "hotel_name": {"type": "string", "description": "hotel name"},
        "guest_name": {"type": "string", "description": "the guest's full name"},
        "nights": {"type": "integer", "description": "number of nights"},
    },
)
RESTAURANT = fn(
    "book_table",
    "Book a table at a restaurant",
    properties={
        "restaurant_name": {"type": "string", "description": "the restaurant"},
        "customer_name": {"type": "string", "description": "name of the customer"},
        "party_size": {"type": "integer", "description": "number of people"},
    },
)
LIBRARY = fn(
    "hold_book",
    "Place a hold on a book at a library branch",
    properties={
        "library_name": {"type": "string", "description": "the library branch"},
        "patron_name": {"type": "string", "description": "the patron's full name"},
    },
)


@pytest.mark.parametrize(
    "spec, request_text, expected",
    [
        (
            MUSEUM,
            "Can I book a ticket for the Science Museum for John Doe?",
            {"museum_name": "Science Museum", "visitor_name": "John Doe"},
        ),
        (
            HOTEL,
            "Reserve 2 nights at the Grand Plaza Hotel for Alice Smith",
            {"hotel_name": "Grand Plaza Hotel", "guest_name": "Alice Smith", "nights": 2},
        ),
        (
            RESTAURANT,
            "Book a table for 4 at the Blue Lagoon Restaurant for Tom Hardy",
            {"restaurant_name": "Blue Lagoon Restaurant", "customer_name": "Tom Hardy"},
        ),
        (
            LIBRARY,
            "Place a hold at the Central Library for Emma Stone",
            {"library_name": "Central Library", "patron_name": "Emma Stone"},
        ),
    ],
)
def test_a_name_goes_to_the_parameter_its_last_word_names_and_the_person_to_the_person(
    spec, request_text, expected
):
    calls, _ = run_request(SIMULATOR, [spec], request_text)
    assert len(calls) == 1, calls
    made = calls[0][1]
    assert all(made.get(key) == value for key, value in expected.items()), made


@pytest.mark.parametrize(
    "spec, request_text",
    [
        (MUSEUM, "Book a ticket for the Science Museum for John Doe and Mary Major"),
        (HOTEL, "Reserve 2 nights at the Grand Plaza for Alice Smith"),  # which is the hotel?
        (LIBRARY, "Place a hold at the Central Library for Emma Stone or Ann Lee"),
    ],
)
def test_two_names_for_one_parameter_are_asked_about(spec, request_text):
    calls, answer = run_request(SIMULATOR, [spec], request_text)
    assert calls == [], calls
    assert "could you tell me" in answer, answer


def test_a_greeting_is_not_part_of_a_name_and_the_one_greeted_is_not_the_visitor():
    assert [name for name, _ in english_names("Hello Anna Bell, book it")] == ["Anna Bell"]
    assert english_names("帮我订 Science Museum 的票") == []  # Chinese text: other rules
    calls, answer = run_request(SIMULATOR, [MUSEUM], "Hello Anna Bell, book the Modern Art Museum")
    assert calls == [] and "visitor" in answer, (calls, answer)  # whom it is for is asked
