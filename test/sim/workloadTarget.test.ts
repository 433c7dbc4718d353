import * as assert from 'node:assert/strict';
import { workloadsNamed } from '../../src/sim/workloadTarget';

describe('workload targets', () => {
  const web = (namespace: string, name = 'web') => ({ kind: 'Deployment', name, namespace });
  const workloads = [web('shop'), web('staging'), web('shop', '<b>bold</b>')];

  it('names a workload as Kind/name, or Kind/namespace/name where namespaces share the name', () => {
    assert.deepEqual(workloadsNamed(workloads, 'deployment/web'), [web('shop'), web('staging')]);
    assert.deepEqual(workloadsNamed(workloads, 'Deployment/staging/web'), [web('staging')]);
    assert.deepEqual(workloadsNamed(workloads, 'Deployment/prod/web'), []);
  });

  it('takes a name with a slash (one the API server refuses, still simulated in the editor) as a name first', () => {
    assert.deepEqual(workloadsNamed(workloads, 'Deployment/<b>bold</b>'), [web('shop', '<b>bold</b>')]);
  });
});
