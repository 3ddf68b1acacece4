//! The live page's server and both web pages: hostile requests, limits and a load on the server; the pages driven in headless Chromium (with `CI` set, a browser test that cannot run fails).
//!
//! One test binary: each file below is a module of it (tests named `module::test`).

#[path = "../common/mod.rs"]
#[allow(dead_code)]
mod common;

mod browser;
mod hardening;
mod html;
mod limits;
mod load;
mod tabs;
