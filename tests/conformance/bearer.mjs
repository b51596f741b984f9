// Loaded into the conformance suite's Node process (`node --import`) when the server
// under test wants authorization: the suite's own client sends no credentials, so
// every request it makes through `fetch` gets `Authorization: Bearer
// $CONFORMANCE_BEARER`. Nothing else about the requests changes.
const token = process.env.CONFORMANCE_BEARER;
if (!token) {
  throw new Error("bearer.mjs: set CONFORMANCE_BEARER to the token to send");
}
const send = globalThis.fetch;
globalThis.fetch = (input, init = {}) => {
  const headers = new Headers(
    init.headers ?? (input instanceof Request ? input.headers : undefined),
  );
  headers.set("authorization", `Bearer ${token}`);
  return send(input, { ...init, headers });
};
