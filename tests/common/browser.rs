//! A browser for the end-to-end tests and benchmarks of the live page: `chromedriver` on a
//! free loopback port driving headless Chromium over the W3C WebDriver protocol through the
//! `fantoccini` client, wrapped for synchronous callers. It must never reach past loopback.
#![allow(dead_code)] // Each test or benchmark uses part of it.

use super::http::{http, Killed};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A WebDriver session, through the `fantoccini` client, driven from this synchronous test on a
/// runtime of its own.
pub struct Browser {
    pub runtime: tokio::runtime::Runtime,
    pub client: fantoccini::Client,
}

impl Browser {
    /// Waits for one WebDriver command.
    pub fn wd<T>(
        &self,
        what: &str,
        command: impl std::future::Future<Output = Result<T, fantoccini::error::CmdError>>,
    ) -> T {
        self.runtime
            .block_on(command)
            .unwrap_or_else(|e| panic!("WebDriver {what}: {e}"))
    }

    pub fn goto(&self, url: &str) {
        self.wd("goto", self.client.goto(url));
    }

    pub fn run(&self, script: &str) -> Value {
        self.wd("execute", self.client.execute(script, Vec::new()))
    }

    pub fn click(&self, css: &str) {
        let e = self.wd(css, self.client.find(fantoccini::Locator::Css(css)));
        self.wd(css, e.click());
    }

    /// Presses and releases one key (a WebDriver key code such as `\u{E013}` for up).
    pub fn press(&self, key: &str) {
        use fantoccini::actions::{InputSource, KeyAction, KeyActions};
        let value = key.chars().next().expect("a key");
        let keys = KeyActions::new("keyboard".to_string())
            .then(KeyAction::Down { value })
            .then(KeyAction::Up { value });
        self.wd("actions", self.client.perform_actions(keys));
    }

    /// Sets the window's size in CSS pixels.
    pub fn resize(&self, width: u32, height: u32) {
        self.wd("window size", self.client.set_window_size(width, height));
    }

    /// Waits until `script` returns true, for at most 20 seconds.
    pub fn wait(&self, what: &str, script: &str) {
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(20) {
            if self.run(script) == json!(true) {
                return;
            }
            std::thread::sleep(Duration::from_millis(40));
        }
        panic!(
            "waited 20 s for {what}; the page: {}",
            self.run("return document.body.innerText")
        );
    }

    pub fn steps(&self) -> usize {
        self.run("return Number(document.body.dataset.steps || 0)")
            .as_u64()
            .unwrap_or(0) as usize
    }

    pub fn over(&self) -> bool {
        self.run("return document.body.dataset.state") == json!("over")
    }

    pub fn screenshot(&self, name: &str) {
        let Some(dir) = std::env::var_os("WUMPUS_SCREENSHOTS") else {
            return;
        };
        let png = self.wd("screenshot", self.client.screenshot());
        std::fs::write(std::path::Path::new(&dir).join(name), png).expect("a screenshot saved");
    }

    /// Starts a new game with the form's fields set as given (ids and values).
    pub fn new_game(&self, fields: &[(&str, &str)]) {
        let before = self.run("return location.hash");
        let mut script = String::from("const set = (id, v) => { const e = document.getElementById(id); e.value = v; e.dispatchEvent(new Event('change')); };");
        for (id, v) in fields {
            script.push_str(&format!("set({id:?}, {v:?});"));
        }
        self.run(&script);
        self.click("#new");
        self.wait(
            "the new game",
            &format!(
                "return location.hash !== {before} && document.body.dataset.state === 'playing' \
                 && Number(document.body.dataset.steps) >= 1"
            ),
        );
    }

    /// Asks for a hint and returns the action it names.
    pub fn hint(&self) -> String {
        self.run("document.getElementById('hintbox').innerHTML = ''");
        self.click("#hint");
        self.wait(
            "a hint",
            "return !!document.querySelector('#hintbox .hint[data-action]')",
        );
        self.run("return document.querySelector('#hintbox .hint').getAttribute('data-action')")
            .as_str()
            .expect("an action")
            .to_string()
    }

    /// Waits for the step after `before` (or the end).
    pub fn wait_turn(&self, before: usize) {
        self.wait(
            "the next turn",
            &format!(
                "return Number(document.body.dataset.steps) > {before} || \
                 document.body.dataset.state === 'over'"
            ),
        );
    }

    /// Reloads the page, as the browser's reload button does.
    pub fn reload(&self) {
        self.wd("refresh", self.client.refresh());
    }

    /// The game's id, from the address.
    pub fn game_id(&self) -> String {
        self.run("return location.hash.replace('#game=', '')")
            .as_str()
            .unwrap()
            .to_string()
    }

    /// The tunnels drawn on the board in `svg` (both ways and one way).
    pub fn edges(&self, svg: &str) -> u64 {
        self.run(&format!(
            "return document.querySelectorAll('#{svg} line.edge').length"
        ))
        .as_u64()
        .unwrap()
    }

    /// The marks of the board in `svg`: place → class.
    pub fn marks(&self, svg: &str) -> Vec<(String, String)> {
        let v = self.run(&format!(
            "return Array.from(document.querySelectorAll('#{svg} text[data-cell]')).map((t) => \
             [t.getAttribute('data-cell'), t.getAttribute('class')])"
        ));
        v.as_array()
            .expect("marks")
            .iter()
            .map(|m| (m[0].as_str().unwrap().into(), m[1].as_str().unwrap().into()))
            .collect()
    }
}

pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Kills every process whose command line names `profile` (a browser's own user-data folder,
/// unique to one test): the browser, its renderers and helpers, however the test ended.
pub fn kill_browser_using(profile: &Path) {
    let needle = profile.to_string_lossy().into_owned();
    let Ok(procs) = std::fs::read_dir("/proc") else {
        return;
    };
    for entry in procs.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<i32>().ok())
        else {
            continue;
        };
        let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) else {
            continue;
        };
        if String::from_utf8_lossy(&cmdline).contains(&needle) {
            // SAFETY: a signal to a process id; at worst one that has just ended.
            unsafe {
                libc::kill(pid, libc::SIGKILL);
            }
        }
    }
}

/// A browser's profile folder that, when dropped, first ends every process still using it.
pub struct Profile(pub tempfile::TempDir);

impl Profile {
    pub fn new() -> Profile {
        Profile(tempfile::tempdir().expect("a browser profile"))
    }

    pub fn path(&self) -> &Path {
        self.0.path()
    }
}

impl Default for Profile {
    fn default() -> Profile {
        Profile::new()
    }
}

impl Drop for Profile {
    fn drop(&mut self) {
        kill_browser_using(self.0.path());
    }
}

/// chromedriver and the browser it started: dropping it ends the session's processes, every
/// one, pass or fail (killing chromedriver alone leaves its browser running).
pub struct Driver {
    driver: Killed,
    profile: PathBuf,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.driver.0.kill();
        let _ = self.driver.0.wait();
        kill_browser_using(&self.profile);
    }
}

/// The live page served from the project's `worlds/` folder, open in a fresh headless browser
/// at `width` by `height` (the browser's default size when `None`) once its first game plays.
/// The server, the driver and the profile last as long as it does.
pub struct LivePage {
    pub browser: Browser,
    /// The server's port.
    pub port: u16,
    _server: Killed,
    _driver: Driver,
    _profile: Profile,
}

impl LivePage {
    pub fn open(size: Option<(u32, u32)>) -> LivePage {
        let worlds = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("worlds");
        let (server, port) = super::http::start_server(&worlds, &[]);
        let profile = Profile::new();
        let (driver, browser) = start_browser(profile.path());
        if let Some((width, height)) = size {
            browser.resize(width, height);
        }
        // The page keeps its browser key in its origin's storage: set to the key the tests'
        // own requests carry, before the page's first game, so that a test can act as another
        // tab of the same browser.
        browser.goto(&format!("http://127.0.0.1:{port}/api/catalogue"));
        browser.run(&format!(
            "localStorage.setItem('wumpus-key', '{}')",
            super::http::test_key(port)
        ));
        browser.goto(&format!("http://127.0.0.1:{port}/"));
        browser.wait(
            "the first game",
            "return document.body.dataset.state === 'playing'",
        );
        LivePage {
            browser,
            port,
            _server: server,
            _driver: driver,
            _profile: profile,
        }
    }
}

pub fn start_browser(profile: &std::path::Path) -> (Driver, Browser) {
    let port = free_port();
    let driver = Driver {
        driver: Killed(
            Command::new("chromedriver")
                .arg(format!("--port={port}"))
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("chromedriver starts"),
        ),
        profile: profile.to_path_buf(),
    };
    let start = Instant::now();
    while http(port, "GET", "/status", None)
        .map_or(true, |(_, v)| v["value"]["ready"] != json!(true))
    {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "chromedriver is not ready"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let caps = json!({"browserName": "chrome",
        "goog:chromeOptions": {"binary": "/usr/bin/chromium", "args": [
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
            "--window-size=1400,900", "--no-first-run", "--disable-background-networking",
            "--disable-component-update", "--disable-sync",
            format!("--user-data-dir={}", profile.display())]}});
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime for the WebDriver client");
    let connector = hyper_util::client::legacy::connect::HttpConnector::new();
    let client = runtime
        .block_on(
            fantoccini::ClientBuilder::new(connector)
                .capabilities(caps.as_object().expect("capabilities").clone())
                .connect(&format!("http://127.0.0.1:{port}")),
        )
        .expect("a browser session");
    (driver, Browser { runtime, client })
}
