import type { Rule } from '../rule';
import { gracePeriodTooShort, heartbeatLoad, podEvictionTimeoutIgnored } from './clusterConfigRules';

/** Every rule, by stable id. Input problems (KFS090–KFS093) come from the parser and model. */
export const RULES: readonly Rule[] = [podEvictionTimeoutIgnored, gracePeriodTooShort, heartbeatLoad];
