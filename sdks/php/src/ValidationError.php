<?php

namespace Crm;

/** 400 or 422: the request is malformed or a field is invalid (see getErrors()). */
class ValidationError extends CrmError
{
}
