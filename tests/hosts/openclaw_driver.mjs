// Drives a real OpenClaw install (no model, no gateway) through the steps of a plan and records what happened.
// Used by tests/hosts/test_openclaw.py, which writes the plan and asserts on the record.
//
// usage: node openclaw_driver.mjs PLAN.json OUT.json
// PLAN: {dist, entry: {name: [file, export]}, config, workspace, steps: [{op, ...}]}
//   entry: OpenClaw's internal functions, found by the test by their names (hashed chunk names change per release)
//   ops: session_start {sessionId} | session_end {sessionId, next} | llm_input {prompt} | prompt_build
//        | bootstrap | tool {name, params, snapshot: [paths]}
//
// Tool calls go through OpenClaw's own coding tools, which wrap themselves with before_tool_call; the after-tool
// event is built as OpenClaw's embedded harness builds it at every tool end (handleToolExecutionEnd), blocked calls
// included, from OpenClaw's own result helpers, and run through the global hook runner.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [planPath, outPath] = process.argv.slice(2);
const plan = JSON.parse(fs.readFileSync(planPath, "utf8"));
const out = { steps: [], load: null };
const save = () => fs.writeFileSync(outPath, JSON.stringify(out, null, 1));

async function entry(name) {
  const [file, exported] = plan.entry[name];
  const mod = await import(pathToFileURL(path.join(plan.dist, file)).href);
  if (typeof mod[exported] !== "function") throw new Error(`${name}: export ${exported} of ${file} is not a function`);
  return mod[exported];
}
const sdk = (name) => import(pathToFileURL(path.join(plan.dist, "plugin-sdk", name)).href);

const loadOpenClawPlugins = await entry("loadOpenClawPlugins");
const createOpenClawCodingTools = await entry("createOpenClawCodingTools");
const buildSessionStartHookPayload = await entry("buildSessionStartHookPayload");
const buildSessionEndHookPayload = await entry("buildSessionEndHookPayload");
const isToolResultError = await entry("isToolResultError");
const extractToolErrorMessage = await entry("extractToolErrorMessage");
const sanitizeToolResult = await entry("sanitizeToolResult");
const { getGlobalHookRunner } = await sdk("plugin-runtime.js");
const harness = await sdk("agent-harness-runtime.js");

const ws = plan.workspace;
const config = plan.config;
const agentId = "main", sessionKey = "agent:main:main", runId = "run-1";
let sessionId = "oc-sess-1";

const t0 = Date.now();
const registry = loadOpenClawPlugins({ config, workspaceDir: ws });
const rec = registry.plugins.find((p) => p.id === "cuticle");
out.load = {
  ms: Date.now() - t0,
  status: rec && rec.status,
  error: rec && rec.error ? String(rec.error) : null,
  typedHooks: registry.typedHooks.filter((h) => h.pluginId === "cuticle").map((h) => ({ hook: h.hookName, matcher: h.matcher || null, timeoutMs: h.timeoutMs || null })),
  internalHooks: registry.hooks.filter((h) => h.pluginId === "cuticle").flatMap((h) => h.events),
  diagnostics: (registry.diagnostics || []).filter((d) => d.pluginId === "cuticle").map((d) => `${d.level}: ${d.message}`),
};
save();
const hookRunner = getGlobalHookRunner();
const read = (p) => { try { return fs.readFileSync(path.join(ws, p), "utf8"); } catch { return null; } };

let tools = null;
let callN = 0;
async function toolStep(step) {
  tools = tools || createOpenClawCodingTools({ config, workspaceDir: ws, agentId, sessionKey, sessionId, runId, modelProvider: "openai", modelId: "gpt-5" });
  const tool = tools.find((t) => t.name === step.name);
  if (!tool) return { missing: true, tools: tools.map((t) => t.name) };
  const toolCallId = `call_${++callN}`;
  const started = Date.now();
  let result, thrown;
  try { result = await tool.execute(toolCallId, step.params, undefined, undefined); } catch (e) { thrown = e; }
  const ms = Date.now() - started;
  if (thrown) result = { content: [{ type: "text", text: String(thrown && thrown.message || thrown) }], details: { status: "error" } };
  // what handleToolExecutionEnd passes to after_tool_call
  const sanitized = sanitizeToolResult(result);
  const isError = !!thrown || isToolResultError(result);
  await hookRunner.runAfterToolCall({ toolName: step.name, params: step.params, runId, toolCallId, result: sanitized,
    error: isError ? extractToolErrorMessage(sanitized) : undefined, durationMs: ms },
  { toolName: step.name, agentId, sessionKey, sessionId, runId, toolCallId });
  const text = (result.content || []).map((c) => c.text || "").join("\n");
  return { ms, text, status: result.details && result.details.status || null, isError };
}

for (const step of plan.steps) {
  const t = Date.now();
  let res = {};
  try {
    if (step.op === "session_start") {
      sessionId = step.sessionId || sessionId;
      tools = null;
      const p = buildSessionStartHookPayload({ sessionId, sessionKey, agentId, resumedFrom: step.resumedFrom });
      await hookRunner.runSessionStart(p.event, p.context);
    } else if (step.op === "session_end") {
      const p = buildSessionEndHookPayload({ sessionId, sessionKey, agentId, messageCount: 2, reason: "new", nextSessionId: step.next });
      await hookRunner.runSessionEnd(p.event, p.context);
    } else if (step.op === "llm_input") {
      await hookRunner.runLlmInput({ runId, sessionId, provider: "openai", model: "gpt-5", systemPrompt: "sys", prompt: step.prompt, historyMessages: [], imagesCount: 0 },
        { runId, agentId, sessionKey, sessionId, workspaceDir: ws, trigger: "user", modelProviderId: "openai", modelId: "gpt-5" });
    } else if (step.op === "prompt_build") {
      const r = await harness.resolveAgentHarnessBeforePromptBuildResult({ prompt: step.prompt || "hi", messages: [], developerInstructions: "dev",
        ctx: { runId, agentId, sessionKey, sessionId, workspaceDir: ws, trigger: "user" } });
      res = { result: r };
    } else if (step.op === "bootstrap") {
      const files = await harness.resolveBootstrapFilesForRun({ workspaceDir: ws, config, sessionKey, sessionId, agentId });
      res = { files: files.map((f) => ({ name: f.name, content: typeof f.content === "string" ? f.content : null })) };
    } else if (step.op === "tool") {
      res = await toolStep(step);
    } else {
      res = { error: `unknown op ${step.op}` };
    }
  } catch (e) {
    res = { ...res, exception: String(e && e.stack || e) };
  }
  res.op = step.op;
  res.label = step.label || step.op;
  res.elapsedMs = Date.now() - t;
  if (step.snapshot) res.files = Object.fromEntries(step.snapshot.map((p) => [p, read(p)]));
  out.steps.push(res);
  save();
}
out.done = true;
save();
process.exit(0);
