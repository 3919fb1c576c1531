<?php

namespace Crm;

/** 401 unauthenticated: the API key is missing, wrong, expired or revoked. */
class AuthenticationError extends CrmError
{
}
