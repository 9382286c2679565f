"""CU301 secret-in-memory: an API key, token, private key, password or credentialed URL in a memory file.

## What it does
Looks for provider key formats (AWS, GitHub, GitLab, Slack, OpenAI, Anthropic, Google, Stripe, SendGrid, npm,
PyPI, Hugging Face, Telegram), JSON web tokens, bearer tokens, PEM private keys, connection strings with a
password (`postgres://user:pass@host`) and password/API-key assignments in prose (`password: …`,
`пароль: …`), credential assignments (`DB_PASSWORD=…`) and options (`--password …`, `mysql -p…`); the table is in
docs/secrets.md. Placeholders (`<token>`, `$API_KEY`, `***`) are ignored, and so is a random-looking token with no
label (it may be an id) and a plain word after a credential name (`SORT_KEY=name`). The secret is masked in every output.

## Why is this bad
Memory is loaded into every session (and sent to the model provider), often committed to git, and readable
by any tool the agent runs. A secret there is a leaked secret.

## Example
```markdown
- Deploy token: ghp_0123456789abcdefghijABCDEFGHIJ012345
```
Use instead: keep the secret in a secret manager and write where it lives (`- Deploy token: in 1Password,
item "deploy"`).

## Fix safety
Unsafe: the fix replaces the secret with `[REDACTED]`. It is unsafe because the secret must still be rotated:
it is already in the file's history.
"""

from __future__ import annotations

from rules.cache import file_only
from rules.model import Applicability, Edit, Fix, Problem, Severity, rule


@rule("CU301", "secret-in-memory", "Secret (key, token, password) in a memory file", Severity.ERROR,
      fix=Applicability.UNSAFE, security=True, inputs=file_only)
def check(ctx):
    from tiers.secrets import MASK, find_secrets, redact, secret_lines

    lines = ctx.lines
    for i in secret_lines([line.text for line in lines]):  # the other lines cannot hold a secret
        line = lines[i]
        found = [s for s in find_secrets(line.text) if not s.guess]  # an id, `SORT_KEY=name`: masked, not reported
        if not found:
            continue
        fix = Fix("replace the secret with [REDACTED] (rotate it too)", (Edit(line.number, redact(line.text),
                                                                              line.text),), Applicability.UNSAFE)
        text = line.text
        for s in found:
            # the word that holds the secret, as every output shows it (a provider's prefix stays)
            start, end = text.rfind(" ", 0, s.start) + 1, text.find(" ", s.end)
            shown = text[start:s.start] + MASK + text[s.end:len(text) if end < 0 else end]
            yield Problem(f"{ctx.path}:{line.number}:{s.start + 1}: {s.kind} '{shown}' in memory; memory is loaded "
                          f"into every session and often committed: rotate it and keep it in a secret manager",
                          line.number, s.start + 1, fix=fix)
            fix = None
