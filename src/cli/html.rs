//! The page `trace --html` writes: one self-contained web page (inline CSS, JavaScript and
//! SVG; nothing loaded from elsewhere) that replays a traced game step by step, for every rule
//! set. The trace is embedded as JSON and drawn by the page's one drawing code: a grid board as
//! a grid, a cave or maze board as a graph at the positions [`wumpus::game::Board`] computes,
//! with what the agent knows, the odds and the hidden world on it. The drawing (`web/view.js`,
//! `web/board.js`, `web/board.css`) is shared with the live page of `wumpus serve` ([`page_with_drawing`]).

use anyhow::Result;
use serde::Serialize;
use wumpus::game::Board;
use wumpus::run::event::{TraceEnd, TraceStart};
use wumpus::run::StepEvent;

/// The page template; the trace goes in place of [`PLACEHOLDER`].
const TEMPLATE: &str = include_str!("trace.html");

/// The one drawing of a board, shared by every page: how a board is put on screen (a big
/// grid's window, the SVG's layers), then the drawing.
const BOARD_JS: &str = concat!(include_str!("web/view.js"), include_str!("web/board.js"));

/// The look of the board and its panel, shared by every page.
const BOARD_CSS: &str = include_str!("web/board.css");

/// A page template with the shared drawing put in place of `/*BOARD_JS*/` and its style in
/// place of `/*BOARD_CSS*/`.
pub fn page_with_drawing(template: &str) -> String {
    template
        .replacen("/*BOARD_CSS*/", BOARD_CSS, 1)
        .replacen("/*BOARD_JS*/", BOARD_JS, 1)
}

/// Where the trace's JSON goes in the template.
const PLACEHOLDER: &str = "/*TRACE_DATA*/";

/// Everything the page draws.
#[derive(Serialize)]
struct Trace<'a> {
    start: &'a TraceStart,
    board: &'a Board,
    steps: &'a [StepEvent],
    end: &'a TraceEnd,
}

/// The page that replays a traced game: its `start`, the `board` it was played on, each
/// step's event and its `end`. `#step=N` in the page's address opens step N.
pub fn trace_page(
    start: &TraceStart,
    board: &Board,
    steps: &[StepEvent],
    end: &TraceEnd,
) -> Result<String> {
    let json = serde_json::to_string(&Trace {
        start,
        board,
        steps,
        end,
    })?;
    // `</` would end the <script> that holds the JSON; `<\/` is the same string to JSON.
    let json = json.replace("</", "<\\/");
    Ok(page_with_drawing(TEMPLATE).replacen(PLACEHOLDER, &json, 1))
}
