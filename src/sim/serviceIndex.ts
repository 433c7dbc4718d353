/**
 * The Services whose selector matches a pod's labels (the EndpointSlice controller's
 * GetPodServiceMemberships), through an index by namespace and a selector's first label, so that
 * thousands of workloads are not each compared with every Service. Results keep the Services'
 * order. Services without a selector have no endpoints managed for them and are never found.
 */
import { matchesMap } from './selectors';

interface Selecting {
  namespace: string;
  selector: Record<string, string>;
}

export class ServiceIndex<S extends Selecting> {
  private readonly position = new Map<S, number>();
  private readonly byLabel = new Map<string, S[]>();
  /** How many Services it holds (a list that grew since needs a new index). */
  readonly size: number;

  constructor(services: readonly S[]) {
    this.size = services.length;
    services.forEach((service, i) => {
      this.position.set(service, i);
      const first = Object.keys(service.selector)[0];
      if (first === undefined) return;
      const key = `${service.namespace}\n${first}=${service.selector[first]}`;
      const list = this.byLabel.get(key);
      if (list) list.push(service);
      else this.byLabel.set(key, [service]);
    });
  }

  selecting(namespace: string, labels: Record<string, string>): S[] {
    const found: S[] = [];
    for (const key in labels) {
      for (const service of this.byLabel.get(`${namespace}\n${key}=${labels[key]}`) ?? []) if (matchesMap(service.selector, labels)) found.push(service);
    }
    if (found.length > 1) found.sort((a, b) => this.position.get(a)! - this.position.get(b)!);
    return found;
  }
}
