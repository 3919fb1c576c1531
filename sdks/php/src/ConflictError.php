<?php

namespace Crm;

/** 409: a duplicate external_id (conflict) or a move the state machine refuses (invalid_transition). */
class ConflictError extends CrmError
{
}
