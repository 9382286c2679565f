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
"""

from __future__ import annotations

from . import Invariant

INVARIANT = Invariant("no-infra-destroy", "destroying infrastructure: terraform destroy, kubectl delete namespace", __doc__)
