<?php

namespace Crm;

/** 402 plan_limit: the account's plan does not allow this. */
class PlanLimitError extends CrmError
{
}
