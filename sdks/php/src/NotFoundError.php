<?php

namespace Crm;

/** 404 not_found. */
class NotFoundError extends CrmError
{
}
