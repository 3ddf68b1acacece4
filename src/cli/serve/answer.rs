//! What the live server answers: an answer written as JSON once however many requests and
//! tabs it goes to ([`Reply`]), and a failure with its status and a message for people
//! ([`ApiError`]), never echoing what came from outside whole, and logging the server's own
//! failures with their cause.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::{json, Value};
use std::sync::Arc;

/// The longest message an error answer carries.
pub const MAX_MESSAGE: usize = 1024;

/// A job's answer, shared: the watched game is kept to answer a second Watch, and it is
/// megabytes on a big board; an action's answer goes to every tab. Each is written as JSON
/// once, however many requests and tabs it answers.
pub type Answer = Arc<Reply>;

/// An answer, with its JSON written when first needed.
#[derive(Debug)]
pub struct Reply {
    /// The answer.
    pub value: Value,
    json: std::sync::OnceLock<axum::body::Bytes>,
}

impl Reply {
    /// `value`, to be written once.
    pub fn new(value: Value) -> Answer {
        Arc::new(Reply {
            value,
            json: std::sync::OnceLock::new(),
        })
    }

    /// The answer as JSON, written the first time.
    pub fn json(&self) -> axum::body::Bytes {
        self.json
            .get_or_init(|| serde_json::to_vec(&self.value).unwrap_or_default().into())
            .clone()
    }

    /// The answer as an HTTP response.
    pub fn response(&self) -> Response {
        (
            [(axum::http::header::CONTENT_TYPE, "application/json")],
            self.json(),
        )
            .into_response()
    }
}

/// A request's failure: its HTTP status and a message for people.
#[derive(Debug)]
pub struct ApiError {
    /// The status.
    pub status: StatusCode,
    /// Why.
    pub message: String,
}

impl ApiError {
    /// An error with `status`. A message is at most [`MAX_MESSAGE`] bytes: what came from
    /// outside is never echoed whole.
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        let mut message = message.into();
        if message.len() > MAX_MESSAGE {
            let mut cut = MAX_MESSAGE;
            while !message.is_char_boundary(cut) {
                cut -= 1;
            }
            message.truncate(cut);
            message.push_str("...");
        }
        ApiError { status, message }
    }

    /// A failure of the server's own.
    pub fn internal() -> ApiError {
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal error")
    }

    /// A failure of the server's own in `what`, logged on standard error with its cause (the
    /// answer says only what failed).
    pub fn logged(what: &str, cause: &dyn std::fmt::Display) -> ApiError {
        eprintln!("wumpus serve: internal error in {what}: {cause}");
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("internal error in {what} (the server's log says why)"),
        )
    }

    pub(super) fn gone() -> ApiError {
        ApiError::new(
            StatusCode::GONE,
            "this game stopped after an internal error: start a new one",
        )
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(json!({ "error": self.message }))).into_response()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_is_written_once_however_often_it_is_sent() {
        let reply = Reply::new(json!({"steps": [1, 2, 3]}));
        let (a, b) = (reply.json(), reply.json());
        assert_eq!(a.as_ptr(), b.as_ptr(), "the same bytes, not written again");
        assert_eq!(&a[..], br#"{"steps":[1,2,3]}"#);
    }
}
