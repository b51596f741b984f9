//! The walk through a tool's pages, as a `futures_core::Stream` (and plain async
//! `next` methods for callers without `StreamExt`).

use std::collections::VecDeque;
use std::future::Future;
use std::marker::PhantomData;
use std::pin::Pin;
use std::task::{Context, Poll};

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use super::{Next, PageLimits, Plan};
use crate::error::Error;
use crate::executor::Executor;

/// One page of a tool's results.
#[derive(Debug, Clone, PartialEq)]
pub struct Page<T> {
    /// The response, decoded (for generated clients: the operation's output type).
    pub value: T,
    /// 1 for the first page.
    pub number: usize,
    pub status: u16,
}

/// A tool's pages, fetched one at a time as the stream is polled. Ends at the last
/// page, at the [`PageLimits`], or at the first error (which it yields).
pub struct Pages<T = Value> {
    walk: Option<Walk>,
    fetching: Option<Fetching>,
    _out: PhantomData<fn() -> T>,
}

impl<T> std::fmt::Debug for Pages<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pages")
            .field("tool", &self.walk.as_ref().map(|w| w.tool.as_str()))
            .field("fetching", &self.fetching.is_some())
            .finish_non_exhaustive()
    }
}

type Fetching = Pin<Box<dyn Future<Output = (Walk, Option<Result<Fetched, Error>>)> + Send>>;

/// A page as received.
pub(crate) struct Fetched {
    body: Value,
    status: u16,
    /// The page's items, cut at the item limit.
    items: Vec<Value>,
    number: usize,
}

/// Where the walk is.
pub(crate) struct Walk {
    executor: Executor,
    tool: String,
    plan: Plan,
    /// The next request; `None` once the last page was read.
    next: Option<Next>,
    /// The arguments of the last request made by arguments.
    args: Map<String, Value>,
    limits: PageLimits,
    pages: usize,
    items: usize,
    /// What the items collected weigh ([`super::weight`]).
    bytes: usize,
    /// By-name walks pass the gate before their first page.
    gated: bool,
}

impl Walk {
    pub(crate) fn new(
        executor: Executor,
        tool: String,
        plan: Plan,
        args: Map<String, Value>,
        gated: bool,
    ) -> Walk {
        Walk {
            executor,
            tool,
            plan,
            next: Some(Next::Args(args.clone())),
            args,
            limits: PageLimits::default(),
            pages: 0,
            items: 0,
            bytes: 0,
            gated,
        }
    }

    fn exhausted(&self) -> bool {
        self.next.is_none()
            || self.pages >= self.limits.max_pages
            || (self.pages > 0 && self.items >= self.limits.max_items)
            || (self.pages > 0 && self.bytes >= self.limits.max_bytes)
    }

    async fn step(mut self) -> (Walk, Option<Result<Fetched, Error>>) {
        if self.exhausted() {
            return (self, None);
        }
        let Some(step) = self.next.clone() else {
            return (self, None);
        };
        let gate = self.gated && self.pages == 0;
        let reply = match self
            .executor
            .page(&self.tool, &step, &self.args, gate)
            .await
        {
            Ok(reply) => reply,
            Err(e) => {
                // An error ends the walk.
                self.next = None;
                return (self, Some(Err(e)));
            }
        };
        if let Next::Args(args) = &step {
            self.args = args.clone();
        }
        self.pages += 1;
        self.next = self.plan.next(&self.args, &reply.headers, &reply.body);
        let room = self.limits.max_items.saturating_sub(self.items);
        let mut items: Vec<Value> = Vec::new();
        for item in self.plan.items(&reply.body).iter().take(room) {
            let weight = super::weight(item);
            if self.bytes.saturating_add(weight) > self.limits.max_bytes {
                // The walk ends here, as at the item limit.
                self.bytes = self.limits.max_bytes;
                break;
            }
            self.bytes += weight;
            items.push(item.clone());
        }
        self.items += items.len();
        let fetched = Fetched {
            body: reply.body,
            status: reply.status,
            items,
            number: self.pages,
        };
        (self, Some(Ok(fetched)))
    }
}

impl<T> Pages<T> {
    pub(crate) fn new(walk: Walk) -> Pages<T> {
        Pages {
            walk: Some(walk),
            fetching: None,
            _out: PhantomData,
        }
    }

    /// Stops after `limits` (default: 10 pages, 1,000 items).
    #[must_use]
    pub fn limits(mut self, limits: PageLimits) -> Self {
        if let Some(walk) = &mut self.walk {
            walk.limits = limits;
        }
        self
    }

    /// The pages' items, one at a time, each decoded as `I`.
    pub fn items<I: DeserializeOwned>(self) -> Items<I> {
        Items {
            pages: Pages {
                walk: self.walk,
                fetching: self.fetching,
                _out: PhantomData,
            },
            buffer: VecDeque::new(),
            _out: PhantomData,
        }
    }

    /// Whether the walk reached the API's last page (rather than a limit or an error).
    pub fn complete(&self) -> bool {
        self.walk.as_ref().is_some_and(|w| w.next.is_none())
    }

    /// The arguments that fetch the page after the last one read, when there is one
    /// and it is asked for by arguments (to resume later, or hand to a model).
    pub fn resume_arguments(&self) -> Option<&Map<String, Value>> {
        match self.walk.as_ref()?.next.as_ref()? {
            Next::Args(args) => Some(args),
            Next::Url(_) => None,
        }
    }

    /// The next page as received, or `None` at the end.
    fn poll_fetched(&mut self, cx: &mut Context<'_>) -> Poll<Option<Result<Fetched, Error>>> {
        if self.fetching.is_none() {
            let Some(walk) = self.walk.take() else {
                return Poll::Ready(None);
            };
            self.fetching = Some(Box::pin(walk.step()));
        }
        let Some(fetching) = self.fetching.as_mut() else {
            return Poll::Ready(None);
        };
        match fetching.as_mut().poll(cx) {
            Poll::Pending => Poll::Pending,
            Poll::Ready((walk, outcome)) => {
                self.fetching = None;
                self.walk = Some(walk);
                Poll::Ready(outcome)
            }
        }
    }

    pub(crate) async fn next_fetched(&mut self) -> Option<Result<Fetched, Error>> {
        std::future::poll_fn(|cx| self.poll_fetched(cx)).await
    }
}

impl<T: DeserializeOwned> Pages<T> {
    /// The next page, or `None` at the end.
    pub async fn next_page(&mut self) -> Option<Result<Page<T>, Error>> {
        std::future::poll_fn(|cx| self.poll_page(cx)).await
    }

    fn poll_page(&mut self, cx: &mut Context<'_>) -> Poll<Option<Result<Page<T>, Error>>> {
        let tool = self.walk.as_ref().map(|w| w.tool.clone());
        self.poll_fetched(cx).map(|outcome| {
            outcome.map(|fetched| {
                let fetched = fetched?;
                let value = decode(tool.as_deref().unwrap_or(""), &fetched.body)?;
                Ok(Page {
                    value,
                    number: fetched.number,
                    status: fetched.status,
                })
            })
        })
    }
}

impl<T: DeserializeOwned> futures_core::Stream for Pages<T> {
    type Item = Result<Page<T>, Error>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        self.get_mut().poll_page(cx)
    }
}

/// The items of a tool's pages, one at a time (see [`Pages::items`]).
pub struct Items<I = Value> {
    pages: Pages<Value>,
    buffer: VecDeque<Value>,
    _out: PhantomData<fn() -> I>,
}

impl<I> std::fmt::Debug for Items<I> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Items")
            .field("pages", &self.pages)
            .field("buffered", &self.buffer.len())
            .finish()
    }
}

impl<I: DeserializeOwned> Items<I> {
    /// The next item, or `None` at the end.
    pub async fn next_item(&mut self) -> Option<Result<I, Error>> {
        std::future::poll_fn(|cx| self.poll_item(cx)).await
    }

    /// Whether the walk reached the API's last page.
    pub fn complete(&self) -> bool {
        self.buffer.is_empty() && self.pages.complete()
    }

    fn poll_item(&mut self, cx: &mut Context<'_>) -> Poll<Option<Result<I, Error>>> {
        loop {
            if let Some(item) = self.buffer.pop_front() {
                let tool = self.pages.walk.as_ref().map(|w| w.tool.clone());
                return Poll::Ready(Some(decode(tool.as_deref().unwrap_or(""), &item)));
            }
            match self.pages.poll_fetched(cx) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(None) => return Poll::Ready(None),
                Poll::Ready(Some(Err(e))) => return Poll::Ready(Some(Err(e))),
                Poll::Ready(Some(Ok(fetched))) => self.buffer.extend(fetched.items),
            }
        }
    }
}

impl<I: DeserializeOwned> futures_core::Stream for Items<I> {
    type Item = Result<I, Error>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        self.get_mut().poll_item(cx)
    }
}

fn decode<T: DeserializeOwned>(tool: &str, value: &Value) -> Result<T, Error> {
    crate::validate::deserialize::<T>(value).map_err(|e| Error::Decode {
        tool: tool.to_owned(),
        message: e.to_string(),
    })
}

impl Fetched {
    pub(crate) fn into_items(self) -> Vec<Value> {
        self.items
    }
}
