// A GraphQL endpoint on loopback, for the end-to-end tests: graphql-js (the reference
// implementation) executing `tracker.graphql` over a few records. Every request is
// recorded as received; `GET /requests` returns them (and forgets them), so a test can
// assert the exact document and variables a call sent. Prints `listening <port>`.
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { buildSchema, graphql } from "graphql";

const schema = buildSchema(readFileSync(process.argv[2], "utf8"));

const octocat = { __typename: "User", id: "U_1", login: "octocat", name: "The Octocat" };
const issues = [
  { __typename: "Issue", id: "I_1", number: 1, title: "Crash on start", state: "OPEN", labels: ["bug"], author: octocat },
  { __typename: "Issue", id: "I_2", number: 2, title: "Docs", state: "CLOSED", labels: [], author: null },
];
// `after: "cN"` starts after the first N items.
const page = (items, first, after) => {
  const start = after ? Number(after.slice(1)) : 0;
  const end = Math.min(start + first, items.length);
  return {
    totalCount: items.length,
    pageInfo: { hasNextPage: end < items.length, endCursor: end > start ? "c" + end : null },
    nodes: items.slice(start, end),
  };
};
const repository = {
  __typename: "Repository",
  id: "R_1",
  name: "tracker",
  stars: 42,
  createdAt: "2020-01-02T03:04:05Z",
  head: "0123456789abcdef0123456789abcdef01234567",
  owner: octocat,
  issues: ({ first, after, states }) => page(issues.filter((i) => !states || states.includes(i.state)), first, after),
  readme: ({ path }) => `# ${path}`,
};
const root = {
  repository: ({ owner, name }) => {
    if (owner === "octocat" && name === "tracker") return repository;
    throw new Error(`Could not resolve to a Repository with the name '${owner}/${name}'.`);
  },
  search: ({ query, first, after }) =>
    page([...issues.filter((i) => i.title.toLowerCase().includes(query.toLowerCase())), octocat], first, after),
  viewer: () => octocat,
  node: ({ id }) => [octocat, repository, ...issues].find((n) => n.id === id) ?? null,
  issueCount: ({ states }) => issues.filter((i) => states.includes(i.state)).length,
  legacyCount: () => issues.length,
  createIssue: ({ input }) => ({
    issue: { __typename: "Issue", id: "I_3", number: 3, title: input.title, state: "OPEN", labels: input.labels, author: octocat },
  }),
  closeIssue: ({ id }) => issues.some((i) => i.id === id && i.state === "OPEN"),
};

const received = [];
const server = createServer((req, res) => {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", async () => {
    const reply = (status, value) => {
      const text = JSON.stringify(value);
      res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
      res.end(text);
    };
    if (req.method === "GET" && req.url === "/requests") {
      return reply(200, received.splice(0));
    }
    if (req.method !== "POST" || req.url !== "/graphql") {
      return reply(404, { errors: [{ message: `no route ${req.method} ${req.url}` }] });
    }
    let body;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    } catch (e) {
      return reply(400, { errors: [{ message: `the body is not JSON: ${e.message}` }] });
    }
    received.push({
      query: body.query,
      variables: body.variables ?? null,
      authorization: req.headers.authorization ?? null,
      contentType: req.headers["content-type"] ?? null,
    });
    const result = await graphql({ schema, source: body.query, rootValue: root, variableValues: body.variables });
    reply(200, result);
  });
});
server.listen(0, "127.0.0.1", () => console.log(`listening ${server.address().port}`));
