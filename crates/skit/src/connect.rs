//! Connecting to a service, with a refusal that says each cause once.

use tonic::transport::Channel;

/// A channel to `url`; `hint` follows the refusal (what to start, say).
pub async fn channel(url: &str, hint: &str) -> anyhow::Result<Channel> {
    let endpoint =
        Channel::from_shared(url.to_owned()).map_err(|_| anyhow::anyhow!("not a URL: {url}"))?;
    endpoint
        .connect()
        .await
        .map_err(|e| anyhow::anyhow!("cannot reach {url}: {}{hint}", causes(&e)))
}

/// The error and its sources, each message once: tonic's transport errors
/// repeat a cause's text at two levels ("tcp connect error: tcp connect
/// error: ...").
fn causes(error: &(dyn std::error::Error + 'static)) -> String {
    let mut said: Vec<String> = Vec::new();
    let mut next = Some(error);
    while let Some(e) = next {
        let text = e.to_string();
        if !said.contains(&text) {
            said.push(text);
        }
        next = e.source();
    }
    said.join(": ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug)]
    struct Layer(&'static str, Option<Box<Layer>>);

    impl std::fmt::Display for Layer {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str(self.0)
        }
    }

    impl std::error::Error for Layer {
        fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
            self.1.as_deref().map(|l| l as _)
        }
    }

    #[test]
    fn a_repeated_cause_is_said_once() {
        let root = Layer("connection refused", None);
        let twice = Layer("tcp connect error", Some(Box::new(root)));
        let once = Layer("tcp connect error", Some(Box::new(twice)));
        let top = Layer("transport error", Some(Box::new(once)));

        assert_eq!(
            causes(&top),
            "transport error: tcp connect error: connection refused"
        );
    }
}
