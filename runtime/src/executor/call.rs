//! [`Call`]: the future a typed client method returns.
//!
//! A named type rather than an `async fn` for the sake of the user's build: a generated
//! client has a method per operation (1,223 for GitHub), and an `async fn` makes each
//! one a state machine of its own for rustc to type-check, borrow-check and, in a
//! release build, compile again per output type. Here the input is checked and
//! serialized when the method is called, the sending is one non-generic boxed future
//! shared by every method, and only the decoding of the answer is per output type.

use std::fmt;
use std::future::Future;
use std::marker::PhantomData;
use std::pin::Pin;
use std::task::{Context, Poll};

use serde::de::DeserializeOwned;
use serde_json::Value;

use super::decode;
use crate::descriptor::Operation;
use crate::error::Error;

/// The sending half of a call, the same for every output type.
pub(super) type Sending<'a> = Pin<Box<dyn Future<Output = Result<Value, Error>> + Send + 'a>>;

/// A typed call on its way: `.await` it for the decoded answer (`Result<O, Error>`).
///
/// Returned by [`Executor::execute`](super::Executor::execute) and so by every generated
/// client method that answers with one type. The input was already checked and
/// serialized when the call was made (an invalid input is the error the first poll
/// returns); nothing is sent until the call is polled, and dropping it before that sends
/// nothing. `Send`, and `Unpin`: it can be polled from `select!` without pinning.
#[must_use = "a call sends nothing until it is awaited"]
pub struct Call<'a, O> {
    op: &'a Operation,
    state: State<'a>,
    // `fn() -> O`: the call produces an `O` but holds none, so it is `Send` whatever
    // `O` is.
    output: PhantomData<fn() -> O>,
}

enum State<'a> {
    Sending(Sending<'a>),
    /// The input was refused before anything was sent; taken by the first poll.
    Refused(Option<Error>),
}

impl<'a, O> Call<'a, O> {
    pub(super) fn sending(op: &'a Operation, sending: Sending<'a>) -> Self {
        Call {
            op,
            state: State::Sending(sending),
            output: PhantomData,
        }
    }

    pub(super) fn refused(op: &'a Operation, error: Error) -> Self {
        Call {
            op,
            state: State::Refused(Some(error)),
            output: PhantomData,
        }
    }
}

impl<O: DeserializeOwned> Future for Call<'_, O> {
    type Output = Result<O, Error>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.get_mut();
        match &mut this.state {
            State::Sending(sending) => sending
                .as_mut()
                .poll(cx)
                .map(|answer| answer.and_then(|body| decode(this.op, body))),
            State::Refused(error) => Poll::Ready(Err(error
                .take()
                .expect("a toolwright Call polled again after it completed"))),
        }
    }
}

impl<O> fmt::Debug for Call<'_, O> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let state = match &self.state {
            State::Sending(_) => "sending",
            State::Refused(Some(_)) => "refused",
            State::Refused(None) => "done",
        };
        f.debug_struct("Call")
            .field("tool", &self.op.name)
            .field("state", &state)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::Call;

    fn send_and_unpin<T: Send + Unpin>() {}

    #[test]
    fn a_call_is_send_and_unpin_whatever_its_output() {
        // `Rc` is neither `Send` nor `Sync`: the call holds no `O`.
        send_and_unpin::<Call<'static, std::rc::Rc<()>>>();
    }
}
