"""Verifies webhook deliveries with the Standard Webhooks reference library (PyPI
`standardwebhooks`), an implementation reviewlock does not share code with. Reads one JSON
object per line on stdin, {"secret", "headers", "body"}; prints one line per delivery, "ok" or
why it does not verify; exits 1 if any does not."""

import json
import sys

from standardwebhooks.webhooks import Webhook, WebhookVerificationError

failed = False
for line in sys.stdin:
    if not line.strip():
        continue
    delivery = json.loads(line)
    try:
        Webhook(delivery["secret"]).verify(delivery["body"], delivery["headers"])
        print("ok")
    except WebhookVerificationError as e:
        print(f"does not verify: {e}")
        failed = True
sys.exit(1 if failed else 0)
