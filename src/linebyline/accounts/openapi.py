"""The OpenAPI 3.1 description of the API, written by hand from progress.merge's limits.

tests/web/test_api_fuzz.py sends what schemathesis generates from it and checks every answer
against it: codes, content types and bodies. JSON Schema cannot say everything the server checks
(a draft's length in UTF-16 units, passed <= total, doneAt only on a done lesson), so a document
that fits the schema may still get a 400, which says why.
"""
from __future__ import annotations

from typing import Any

from .. import __version__
from ..progress import merge as pm

TIME = {"type": "integer", "minimum": 0, "maximum": pm.MAX_TIME,
        "description": "milliseconds since 1970-01-01 UTC, as the device that acted saw them"}
DEVICE = {"type": "string", "pattern": pm.DEVICE.pattern}


def _text(limit: int, description: str) -> dict[str, Any]:
    return {"type": "string", "maxLength": limit, "description": description}


def _lesson(version: int) -> dict[str, Any]:
    properties: dict[str, Any] = {
        "status": {"enum": list(pm.STATUSES)},
        "quiz": {"type": "object", "maxProperties": pm.MAX_QUIZ_ANSWERS,
                 "propertyNames": {"pattern": pm.QUIZ_ID.pattern},
                 "additionalProperties": {"$ref": f"#/components/schemas/QuizAnswerV{version}"}},
        "hintsShown": {"type": "integer", "minimum": 0, "maximum": pm.MAX_HINTS},
        "checks": {"type": "object", "required": ["passed", "total"], "additionalProperties": False,
                   "properties": {"passed": {"type": "integer", "minimum": 0, "maximum": pm.MAX_CHECKS},
                                  "total": {"type": "integer", "minimum": 0, "maximum": pm.MAX_CHECKS}},
                   "description": "the best check result: passed is at most total"},
        "draft": _text(pm.MAX_DRAFT, "the code in the editor (its newest version), at most "
                       f"{pm.MAX_DRAFT:,} UTF-16 code units"),
    }
    if version == 2:
        properties.update({
            "doneAt": {**TIME, "description": "when the lesson was first done (only on a done lesson)"},
            "draftAt": TIME, "draftDevice": DEVICE,
            "draftBase": {"$ref": "#/components/schemas/Base"},
            "earlier": {"type": "array", "maxItems": pm.MAX_EARLIER,
                        "items": {"$ref": "#/components/schemas/DraftVersion"},
                        "description": "other devices' versions of the draft, newest first, "
                        f"at most {pm.MAX_EARLIER}"},
            "passedCode": _text(pm.MAX_DRAFT, "the code that last passed the lesson's checks, "
                                "kept apart from the draft (only on a done lesson, with "
                                "passedAt)"),
            "passedAt": {**TIME, "description": "when that code passed"},
        })
    return {"type": "object", "required": ["status"], "additionalProperties": False,
            "properties": properties}


def _document(version: int) -> dict[str, Any]:
    return {
        "type": "object", "required": ["format", "version", "course", "lessons"],
        "properties": {
            "format": {"const": pm.FORMAT},
            "version": {"const": version},
            "course": {"type": "string", "pattern": pm.COURSE.pattern},
            "device": {**DEVICE, "description": "the device that wrote it (ignored)"},
            "exported": {"type": "string", "description": "when it was exported (ignored)"},
            "lessons": {"type": "object", "maxProperties": pm.MAX_LESSONS,
                        "propertyNames": {"pattern": pm.LESSON_NUMBER.pattern},
                        "additionalProperties": {"$ref": f"#/components/schemas/LessonV{version}"}},
            "settings": {"type": "object", "additionalProperties": False,
                         "properties": {name: {
                             "type": "object", "required": ["value", "at"],
                             "additionalProperties": False,
                             "properties": {"value": {"enum": list(values)}, "at": TIME}}
                             for name, values in pm.SETTINGS.items()},
                         "description": "the learner's settings for the course, each with the "
                         "time it was chosen (merged: the latest); todoLevel is the level of "
                         "the Build's TODO comments"},
        },
    }


def _error(description: str) -> dict[str, Any]:
    return {"description": description,
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}


COMMON_ERRORS = {
    "401": _error("not signed in, or the token was revoked"),
    "403": _error("a session request that failed Django's CSRF check"),
}


def description() -> dict[str, Any]:
    return {
        "openapi": "3.1.0",
        "info": {"title": "linebyline API", "version": __version__,
                 "description": "A learner's progress in a course, shared by their browsers and "
                 "their terminal. Merging is commutative, associative and idempotent: send what "
                 "you have, any number of times, and get back everything the account has."},
        "security": [{"session": [], "csrf": []}, {"token": []}],
        "paths": {**_progress_path(), **_account_paths()},
        "components": {
            "securitySchemes": {
                "session": {"type": "apiKey", "in": "cookie", "name": "sessionid",
                            "description": "the browser's session, after signing in"},
                "csrf": {"type": "apiKey", "in": "header", "name": "X-CSRFToken",
                         "description": "with the session, on POST: the csrftoken cookie's value"},
                "token": {"type": "http", "scheme": "bearer",
                          "description": "a personal token from the account page "
                          "(`linebyline login`)"},
            },
            "schemas": _schemas(),
        },
    }


def _progress_path() -> dict[str, Any]:
    """/api/progress/: read the account's progress, or merge a document into it."""
    document_v2 = {"application/json": {"schema": {"$ref": "#/components/schemas/ProgressV2"}}}
    return {
        "/api/progress/": {
            "get": {
                "summary": "The signed-in learner's progress in a course",
                "operationId": "readProgress",
                "parameters": [{"name": "course", "in": "query", "required": True,
                                "schema": {"type": "string"}}],
                "responses": {
                    "200": {"description": "the progress (empty lessons when none yet)",
                            "content": document_v2},
                    "400": _error("no course named"),
                    "404": _error("this server has no such course"),
                    **COMMON_ERRORS,
                },
            },
            "post": {
                "summary": "Merge a progress document into the account's",
                "description": "Version 1 (the old export format) and version 2 are both "
                "accepted. The answer is the merged progress, the same for every device.",
                "operationId": "mergeProgress",
                "requestBody": {"required": True, "content": {"application/json": {"schema": {
                    "oneOf": [{"$ref": "#/components/schemas/ProgressV1"},
                              {"$ref": "#/components/schemas/ProgressV2"}]}}}},
                "responses": {
                    "200": {"description": "the merged progress", "content": document_v2},
                    "400": _error("not JSON, not a progress document, or lessons the "
                                  "course does not have (nothing is stored then): the "
                                  "message names the part and the problem"),
                    "404": _error("this server has no such course"),
                    "413": _error("more than the 4 MB an account keeps for a course, "
                                  "before or after merging"),
                    "415": _error("not sent as application/json"),
                    "429": _error("too many updates in a minute"),
                    **COMMON_ERRORS,
                },
            },
    }
    }


def _account_paths() -> dict[str, Any]:
    """/api/account/ (who is signed in) and /api/token/ (revoke the token in use)."""
    return {
        "/api/account/": {
            "get": {
                "summary": "Who the request is signed in as",
                "description": "What a page's header shows for them (every page is the same "
                "for everyone; its script fills this in). Without credentials the answer "
                "says nobody is signed in; the messages waiting for this browser's session "
                "come with it once.",
                "operationId": "readAccount",
                "security": [{"session": []}, {"token": []}, {}],
                "responses": {
                    "200": {"description": "the account, or signedIn false",
                            "content": {"application/json": {
                                "schema": {"$ref": "#/components/schemas/Account"}}}},
                    "401": _error("a token that does not work"),
                },
            },
        },
        "/api/token/": {
            "delete": {
                "summary": "Revoke the token this request is made with",
                "operationId": "revokeToken",
                "security": [{"token": []}],
                "responses": {"204": {"description": "revoked"},
                              "400": _error("the request carries no token"),
                              **COMMON_ERRORS},
            },
    }
    }


def _schemas() -> dict[str, Any]:
    return {
        "ProgressV1": _document(1),
        "ProgressV2": _document(2),
        "LessonV1": _lesson(1),
        "LessonV2": _lesson(2),
        "QuizAnswerV1": {"type": "object", "required": ["answer", "correct"],
                         "additionalProperties": False,
                         "properties": {"answer": _text(pm.MAX_ANSWER, "the answer given"),
                                        "correct": {"type": "boolean"}}},
        "QuizAnswerV2": {"type": "object", "required": ["answer", "correct"],
                         "additionalProperties": False,
                         "properties": {"answer": _text(pm.MAX_ANSWER, "the answer given"),
                                        "correct": {"type": "boolean"}, "at": TIME}},
        "Base": {"type": "object", "maxProperties": pm.MAX_BASE,
                 "propertyNames": {"pattern": pm.DEVICE.pattern},
                 "additionalProperties": TIME,
                 "description": "the other devices' versions this one was derived from"},
        "DraftVersion": {"type": "object", "required": ["draft", "at", "device"],
                         "additionalProperties": False,
                         "properties": {"draft": _text(pm.MAX_DRAFT, "the code"),
                                        "at": TIME, "device": DEVICE,
                                        "base": {"$ref": "#/components/schemas/Base"}}},
        "Account": {"type": "object", "required": ["signedIn", "links", "messages"],
                    "properties": {
                        "signedIn": {"type": "boolean"},
                        "username": {"type": "string"},
                        "name": {"type": "string"},
                        "token": {"type": ["string", "null"],
                                  "description": "the name of the token used"},
                        "account": {"type": "string", "description": "the id the "
                                    "browser keeps this account's progress and events "
                                    "under"},
                        "learnerSeed": {"type": "string", "description": "the seed of "
                                        "this learner's order of quiz choices"},
                        "teach": {"type": "boolean",
                                  "description": "whether the header shows Teach"},
                        "links": {"type": "object", "additionalProperties": {
                            "type": "string"}, "description": "signIn, account, "
                            "signOut, progress, teach"},
                        "messages": {"type": "array", "items": {"type": "string"}}}},
        "Error": {"type": "object", "required": ["error"],
                  "properties": {"error": {"type": "string"},
                                 "unknown": {"type": "array", "items": {"type": "string"},
                                             "description": "lessons the course on this "
                                             "server does not have (a 400 that refuses "
                                             "them)"}}}
    }
