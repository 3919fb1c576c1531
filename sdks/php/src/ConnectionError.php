<?php

namespace Crm;

/** No response: the connection failed or timed out (retried first). */
class ConnectionError extends CrmError
{
}
