"""no-infra-destroy: destroying infrastructure: terraform destroy, kubectl delete namespace.

## What it denies
Denies commands that tear down infrastructure: `terraform destroy`/`apply -destroy`, `tofu`/`pulumi destroy`,
`kubectl delete namespace`, `helm uninstall` of whole releases and the like.

## Why
Infrastructure deletes are slow to undo and often take data with them.

## Example
```sh
terraform destroy -auto-approve   # denied
terraform plan                    # allowed
```

## How it is checked
`infra_violation` below decides on the unwrapped command's words alone (after sudo, env, timeout… are looked
through by the walker).
"""

from __future__ import annotations

from . import Invariant, Violation

INVARIANT = Invariant("no-infra-destroy", "destroying infrastructure: terraform destroy, kubectl delete namespace", __doc__)


def infra_violation(tool: str, argv, segment: int = -1) -> Violation | None:
    """terraform/tofu/pulumi destroy, kubectl delete of namespaces or everything, helm uninstall."""
    args = argv[1:]
    ops = [a for a in args if not a.startswith("-")]
    what = None
    if tool in ("terraform", "tofu", "pulumi", "cdk", "cdktf"):
        if "destroy" in ops[:2] or ("apply" in ops[:2] and any(a in ("-destroy", "--destroy") for a in args)):
            what = f"{tool} destroy"
    elif tool == "kubectl":
        if "delete" in ops:
            rest = ops[ops.index("delete") + 1:]
            joined = " ".join(rest)
            if rest and (rest[0] in ("ns", "namespace", "namespaces", "all", "node", "nodes", "pv", "crd")
                         or joined.startswith(("ns/", "namespace/")) or "--all" in args
                         or "--all-namespaces" in args or "-A" in args):
                what = "kubectl delete " + " ".join(rest[:2])
    elif tool == "helm" and ops[:1] and ops[0] in ("uninstall", "delete"):
        what = "helm uninstall"
    if what:
        return Violation(INVARIANT.id, f"{what} destroys infrastructure; ask the user to run it", segment)
    return None
