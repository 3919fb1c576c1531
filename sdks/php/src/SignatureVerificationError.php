<?php

namespace Crm;

/** A webhook's signature, timestamp or headers do not verify (Webhook::verify). */
class SignatureVerificationError extends CrmError
{
}
