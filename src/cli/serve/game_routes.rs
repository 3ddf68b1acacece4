//! The routes of one game of the live page: its actions, view, hint, the agent's game
//! (Watch), its stream of changes and its end. Each asks the game's actor through
//! [`Server::ask`] with the browser's key; none touches a game that is not the key's, and
//! none holds the games' lock across an await.

use axum::extract::rejection::JsonRejection;
use axum::extract::{Path as UrlPath, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use std::time::Duration;

use super::request::bad;
use super::{games, key_of, listen, rejected, ApiError, Job, Shared};

/// An action the player takes, in the player's words (`north`, `move 5`, `shoot 5 6 7`,
/// `toss 2`).
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub(super) struct Act {
    action: String,
    /// The step the page believes the game is at: an action from a stale view (another tab
    /// played meanwhile) is refused with 409 rather than played where the page did not mean.
    #[serde(default)]
    step: Option<usize>,
}

pub(super) async fn act(
    State(server): State<Shared>,
    UrlPath(id): UrlPath<String>,
    headers: HeaderMap,
    body: Result<Json<Act>, JsonRejection>,
) -> Result<Response, ApiError> {
    let Json(req) = body.map_err(rejected)?;
    if req.action.len() > 200 {
        return Err(bad("an action is a few words"));
    }
    answer(&server, &id, &headers, Job::Act(req.action, req.step)).await
}

pub(super) async fn view(
    State(server): State<Shared>,
    UrlPath(id): UrlPath<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    answer(&server, &id, &headers, Job::View).await
}

pub(super) async fn hint(
    State(server): State<Shared>,
    UrlPath(id): UrlPath<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    answer(&server, &id, &headers, Job::Hint).await
}

/// Game `id`'s answer to `job`, for the key `headers` carry.
async fn answer(
    server: &Shared,
    id: &str,
    headers: &HeaderMap,
    job: Job,
) -> Result<Response, ApiError> {
    let key = key_of(headers);
    server
        .ask(id, key.as_deref(), job)
        .await
        .map(|a| a.response())
}

pub(super) async fn watch(
    State(server): State<Shared>,
    UrlPath(id): UrlPath<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let key = key_of(&headers);
    // The agent's whole game is played the first time: heavy work, taken in turn.
    server
        .heavy
        .run(server.ask(&id, key.as_deref(), Job::Watch))
        .await
        .map(|a| a.response())
}

/// `GET /api/games/{id}/events`: the game's changes as server-sent events, one `act` event an
/// action (its answer, as `act` gives it), as long as the game lives, for every tab that shows
/// it. A tab that listens keeps the game from ending when another tab closes.
pub(super) async fn events(
    State(server): State<Shared>,
    UrlPath(id): UrlPath<String>,
    headers: HeaderMap,
    streaming: Option<axum::Extension<listen::Streaming>>,
) -> Result<Response, ApiError> {
    use axum::response::sse::{Event, KeepAlive, Sse};
    use tokio::sync::broadcast::error::RecvError;
    let key = key_of(&headers);
    let listener = {
        let mut games = server.games.lock().map_err(|_| ApiError::internal())?;
        games.get(&id, key.as_deref())?.events.subscribe()
    };
    // Busy while it streams; ended whole before the connection's lifetime would cut it (the
    // browser's event source then opens it again at once).
    let busy = streaming.map(|axum::Extension(s)| s.hold());
    // The browser opens a stream that ended again after half a second.
    let opening = futures_util::stream::once(async {
        Ok::<_, std::convert::Infallible>(
            Event::default()
                .retry(Duration::from_millis(500))
                .comment("open"),
        )
    });
    let ends = tokio::time::Instant::now() + STREAM_LIFETIME;
    let stream =
        futures_util::stream::unfold((listener, busy), move |(mut listener, busy)| async move {
            let event = match tokio::time::timeout_at(ends, listener.recv()).await {
                Ok(Ok(change)) => Event::default()
                    .event("act")
                    .data(String::from_utf8_lossy(&change.json())),
                // Too far behind: the tab reloads the game's view.
                Ok(Err(RecvError::Lagged(_))) => Event::default().event("stale").data("{}"),
                Ok(Err(RecvError::Closed)) | Err(_) => return None,
            };
            Some((Ok::<_, std::convert::Infallible>(event), (listener, busy)))
        });
    Ok(Sse::new(futures_util::StreamExt::chain(opening, stream))
        .keep_alive(KeepAlive::new().interval(KEEP_ALIVE))
        .into_response())
}

/// A stream of events ends this long after it opened, whole, before the connection's own
/// lifetime ([`listen::CONNECTION_LIFETIME`]) would cut it mid-answer; the page's event source
/// opens a new one at once.
const STREAM_LIFETIME: Duration = Duration::from_secs(90);

/// How often a stream of events with nothing to say sends a comment: a closed tab's stream is
/// noticed gone at the next one.
const KEEP_ALIVE: Duration = Duration::from_secs(2);

/// The longest `grace` a `DELETE` may ask for, in seconds.
const MAX_GRACE: u64 = 30;

/// `DELETE /api/games/{id}?grace=S`: the page closing (or reloading) its tab. The game ends
/// after S seconds (at most [`MAX_GRACE`]) unless it is asked for in the meantime, as a reloaded
/// page asks for its game.
#[derive(Deserialize, Debug)]
pub(super) struct Grace {
    grace: Option<u64>,
}

pub(super) async fn end_game(
    State(server): State<Shared>,
    UrlPath(id): UrlPath<String>,
    headers: HeaderMap,
    Query(q): Query<Grace>,
) -> Result<StatusCode, ApiError> {
    let key = key_of(&headers);
    server.actor(&id, key.as_deref())?;
    match q.grace.filter(|&s| s > 0) {
        None => {
            if let Ok(mut games) = server.games.lock() {
                games.remove(&id, "its player ended it");
            }
        }
        Some(s) => {
            let asked = std::time::Instant::now();
            tokio::spawn(async move {
                tokio::time::sleep(Duration::from_secs(s.min(MAX_GRACE))).await;
                // The closed tab's own stream of events is noticed gone at its next keep-alive;
                // until then the game waits rather than outlive every tab.
                for _ in 0..=2 * KEEP_ALIVE.as_secs() {
                    match server.games.lock() {
                        Ok(mut games) => {
                            if games.remove_unused_since(&id, asked) != games::Unused::Listened {
                                return;
                            }
                        }
                        Err(_) => return,
                    }
                    tokio::time::sleep(Duration::from_secs(1)).await;
                }
            });
        }
    }
    Ok(StatusCode::NO_CONTENT)
}
