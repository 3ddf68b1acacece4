//! What every request to the live server passes before a handler sees it: the `Host` and
//! `Origin` it names must be this server's own (so that a page on another site, even one whose
//! name a DNS rebinding points here, cannot drive the API), it must be answered within
//! [`REQUEST_TIME`], and every answer carries headers that keep it out of frames and sniffing.
//!
//! It must never let a request through whose `Host` is not a loopback name (or a name the user
//! allowed) with the server's own port, nor one whose `Origin`, when given, is not such a host.

use super::live::ApiError;
use axum::extract::{Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

/// A request (its body read, and its answer worked out) must be done within this time.
pub const REQUEST_TIME: Duration = Duration::from_secs(30);

/// The hosts a request may name: the server's port with a loopback name, the bound address,
/// and the names the user allowed.
#[derive(Clone, Debug)]
pub struct Hosts {
    port: u16,
    bound: IpAddr,
    allowed: Vec<String>,
}

impl Hosts {
    /// The hosts of a server bound to `bound`:`port`, with the extra names `allowed`.
    pub fn new(bound: IpAddr, port: u16, allowed: &[String]) -> Hosts {
        Hosts {
            port,
            bound,
            allowed: allowed.iter().map(|h| h.to_ascii_lowercase()).collect(),
        }
    }

    /// True when a `Host` header value names this server.
    pub fn allows(&self, host: &str) -> bool {
        let host = host.trim().to_ascii_lowercase();
        let (name, port) = match host.rsplit_once(':') {
            // `[::1]:8017`, `127.0.0.1:8017`, `localhost:8017`; a bare IPv6 address has colons
            // but no brackets, and no port.
            Some((name, port)) if !name.contains(':') || name.ends_with(']') => {
                (name, port.parse::<u16>().ok())
            }
            _ => (host.as_str(), Some(80)),
        };
        if port != Some(self.port) {
            return false;
        }
        let ip = name
            .strip_prefix('[')
            .and_then(|n| n.strip_suffix(']'))
            .unwrap_or(name)
            .parse::<IpAddr>()
            .ok();
        match ip {
            Some(ip) => {
                ip.is_loopback()
                    || ip == self.bound
                    // Bound to every address on purpose: any address of this machine.
                    || self.bound.is_unspecified()
            }
            None => name == "localhost" || self.allowed.iter().any(|a| a == name),
        }
    }

    /// True when an `Origin` header value is this server's own page.
    pub fn allows_origin(&self, origin: &str) -> bool {
        origin
            .strip_prefix("http://")
            .is_some_and(|host| !host.contains('/') && self.allows(host))
    }
}

/// Refuses a foreign `Host` or `Origin` with 403, answers in time or with 408, and adds the
/// headers every answer carries.
pub async fn guard(State(hosts): State<Arc<Hosts>>, request: Request, next: Next) -> Response {
    // Every `Host` and `Origin` the request carries is checked: a second one may be what a
    // proxy or a framework behind reads.
    let host_list = header_texts(&request, header::HOST);
    let origins = header_texts(&request, header::ORIGIN);
    let refused = if host_list.is_empty() {
        Some("a request must name its Host".to_string())
    } else if let Some(host) = host_list.iter().find(|h| !hosts.allows(h)) {
        Some(format!(
            "this server answers only for its own address, not for Host {} (`wumpus serve \
             --allow-host NAME` allows another name)",
            wumpus::files::quoted(host)
        ))
    } else if host_list.len() > 1 {
        Some("a request names one Host".to_string())
    } else {
        origins
            .iter()
            .find(|o| !hosts.allows_origin(o))
            .map(|origin| {
                format!(
                    "this server answers only its own page, not one from {}",
                    wumpus::files::quoted(origin)
                )
            })
    };
    // A body announced over the limit is refused on its head, before anything is read: hyper
    // answers `Expect: 100-continue` only once the body is read, so the client never sends it.
    let announced =
        header_text(&request, header::CONTENT_LENGTH).and_then(|v| v.trim().parse::<u64>().ok());
    let too_large = announced.is_some_and(|n| n > super::MAX_BODY as u64);
    let mut response = match refused {
        Some(why) => ApiError::new(StatusCode::FORBIDDEN, why).into_response(),
        None if too_large => ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "a request body is at most {} KiB here",
                super::MAX_BODY / 1024
            ),
        )
        .into_response(),
        None => match tokio::time::timeout(REQUEST_TIME, next.run(request)).await {
            Ok(response) => response,
            Err(_) => ApiError::new(
                StatusCode::REQUEST_TIMEOUT,
                format!(
                    "the request took over {} seconds (its body, or the answer)",
                    REQUEST_TIME.as_secs()
                ),
            )
            .into_response(),
        },
    };
    let headers = response.headers_mut();
    for (name, value) in [
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::X_FRAME_OPTIONS, "DENY"),
        (header::REFERRER_POLICY, "no-referrer"),
        (
            header::CONTENT_SECURITY_POLICY,
            "default-src 'none'; frame-ancestors 'none'",
        ),
    ] {
        headers
            .entry(name)
            .or_insert_with(|| HeaderValue::from_static(value));
    }
    response
}

/// Every value of a header, as text (bytes that are not text shown as `\u{fffd}`).
fn header_texts(request: &Request, name: header::HeaderName) -> Vec<String> {
    request
        .headers()
        .get_all(name)
        .iter()
        .map(|v| v.to_str().unwrap_or("\u{fffd}").to_string())
        .collect()
}

/// A header's value as text (bytes that are not text shown as `\u{fffd}`).
fn header_text(request: &Request, name: header::HeaderName) -> Option<String> {
    request
        .headers()
        .get(name)
        .map(|v| v.to_str().unwrap_or("\u{fffd}").to_string())
}

/// The content security policy of the page itself: its scripts only by `nonce`, its own
/// inline styles, requests only to this server, never in a frame.
pub fn page_policy(nonce: &str) -> String {
    format!(
        "default-src 'none'; script-src 'nonce-{nonce}'; style-src 'unsafe-inline'; \
         img-src data:; connect-src 'self'; base-uri 'none'; form-action 'none'; \
         frame-ancestors 'none'"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_names_with_the_port_only() {
        let hosts = Hosts::new("127.0.0.1".parse().unwrap(), 8017, &[]);
        for ok in [
            "127.0.0.1:8017",
            "localhost:8017",
            "LOCALHOST:8017",
            "[::1]:8017",
            "127.0.0.2:8017",
        ] {
            assert!(hosts.allows(ok), "{ok}");
        }
        for no in [
            "evil.example",
            "evil.example:8017",
            "127.0.0.1:8018",
            "127.0.0.1",
            "localhost",
            "localhost.evil.example:8017",
            "10.0.0.1:8017",
            "",
            "::1",
        ] {
            assert!(!hosts.allows(no), "{no}");
        }
        assert!(hosts.allows_origin("http://127.0.0.1:8017"));
        assert!(hosts.allows_origin("http://localhost:8017"));
        assert!(!hosts.allows_origin("http://evil.example"));
        assert!(!hosts.allows_origin("https://127.0.0.1:8017"));
        assert!(!hosts.allows_origin("null"));
        assert!(!hosts.allows_origin("http://127.0.0.1:8017/x"));
    }

    #[test]
    fn a_name_the_user_allowed_and_an_address_bound_on_purpose() {
        let hosts = Hosts::new(
            "192.168.1.5".parse().unwrap(),
            80,
            &["Wumpus.Lan".to_string()],
        );
        assert!(hosts.allows("192.168.1.5"));
        assert!(hosts.allows("wumpus.lan"));
        assert!(hosts.allows("wumpus.lan:80"));
        assert!(!hosts.allows("192.168.1.6"));
        assert!(!hosts.allows("evil.example"));
        let any = Hosts::new("0.0.0.0".parse().unwrap(), 9000, &[]);
        assert!(any.allows("10.1.2.3:9000"));
        assert!(!any.allows("evil.example:9000"), "names still refused");
    }
}
