<?php

namespace Crm;

/** 403: the key lacks a scope (insufficient_scope) or the origin is refused. */
class PermissionError extends CrmError
{
}
