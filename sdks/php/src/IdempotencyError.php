<?php

namespace Crm;

/** idempotency_key_reused (422) or idempotency_key_in_use (409, retried first). */
class IdempotencyError extends CrmError
{
}
