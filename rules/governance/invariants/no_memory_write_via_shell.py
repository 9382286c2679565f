"""no-memory-write-via-shell: writes to memory files by any means but the memory gate.

## What it denies
Denies shell writes to the memory files (the workspace's memory globs, built in `MEMORY.md`, `memory.md`,
`USER.md`, `memory/**/*.md`) and to the files cuticle generates (`INSIGHTS.md`, `PERSONALITY.md`): redirections,
`tee`, `sed -i`, `cp`/`mv`/`install` (also `-t DIR`), links, `dd of=`, `sort -o`, editors, `git checkout/restore
-- FILE`, git commands that rewrite the work tree from the index or a commit (`git checkout .`, `git restore
PATHSPEC`, `git reset --hard`: each file git lists as changed under the pathspecs is written), git commands that
update the work tree from other commits (`git merge`, `git pull`, `git cherry-pick`, `git revert`, `git rebase`,
`git checkout/switch BRANCH`: each file git would change is written; when that cannot be known, every protected
path the repository tracks counts, `rules/governance/analyze/worktree.py`), `git apply`/`patch`/`tar -x`/`unzip`/`git stash pop` of content that touches them, and interpreter code
(`python -c`, `node -e`, `perl -e`, `ruby -e`, `php -r`, `awk` redirection). A target known only at run time (a
variable from the environment, a substitution, computed interpreter paths, an unreadable patch or archive) counts
as every protected path it could name.

## How it is checked
The effect model (`rules/governance/analyze`) turns every command into write, delete and link effects on resolved
paths; each one is judged by `protected_write` and, for a target only known at run time, `unknown_target`
(`rules/governance/invariants/_targets.py`), which name this invariant for the memory files
(`Env.protected`).

## Why
Memory writes go through the file tools so the memory gate can tier, stamp and check each line; a shell
write skips all of that.

## Example
```sh
tee -a {MEMORY,foo}.md          # denied: brace expansion names MEMORY.md
echo x >> "$(date +%F).log"      # allowed: whatever the date, the name ends in .log
```
"""

from __future__ import annotations

from . import Invariant

INVARIANT = Invariant("no-memory-write-via-shell", "writes to memory files by any means but the memory gate", __doc__)

#: what every denial of this invariant tells the agent to do instead
FIX = ("write memory through the file tools (Write/Edit/apply_patch) so the memory gate can tier and check the lines; "
       "reading memory is fine")
