/*
** side_churn.c -- the allocation loop of churn.h in a side module
** (-sSIDE_MODULE=1), linked at load time into dylink_churn.c
** (bench/side_module_cost.js).
*/
#include "churn.h"

CHURN_FUNCTION(side_churn)
