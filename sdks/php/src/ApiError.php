<?php

namespace Crm;

/** 5xx, or any other status the SDK has no family for. */
class ApiError extends CrmError
{
}
