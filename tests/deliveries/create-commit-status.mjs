// Validates commit-status request bodies against the `repos/create-commit-status` operation of
// GitHub's published OpenAPI description (npm @octokit/openapi): its path, method and request
// body schema. Reads one JSON object per line on stdin, {"method", "path", "body"}; prints one
// line per request, "ok" or what is wrong; exits 1 if any is wrong.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import Ajv from "ajv";
import addFormats from "ajv-formats";

const require = createRequire(import.meta.url);
const spec = JSON.parse(
  readFileSync(require.resolve("@octokit/openapi/generated/api.github.com.deref.json"), "utf8"),
);
const template = "/repos/{owner}/{repo}/statuses/{sha}";
const operation = spec.paths[template]?.post;
if (operation?.operationId !== "repos/create-commit-status") {
  console.error(`no repos/create-commit-status at POST ${template}`);
  process.exit(2);
}
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
const validate = ajv.compile(operation.requestBody.content["application/json"].schema);
const pattern = /^\/repos\/[^/]+\/[^/]+\/statuses\/[^/]+$/;

let failed = false;
const input = readFileSync(0, "utf8").split("\n").filter((line) => line.trim() !== "");
for (const line of input) {
  const { method, path, body } = JSON.parse(line);
  const problems = [];
  if (method !== "POST") problems.push(`method ${method}, not POST`);
  if (!pattern.test(path)) problems.push(`path ${path} is not ${template}`);
  if (!validate(body)) problems.push(ajv.errorsText(validate.errors));
  console.log(problems.length === 0 ? "ok" : problems.join("; "));
  failed ||= problems.length > 0;
}
process.exit(failed ? 1 : 0);
