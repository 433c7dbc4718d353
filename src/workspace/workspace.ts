/**
 * The service both front ends call (ARCHITECTURE.md): the documents of one workspace folder or
 * one CLI run, each with its own incremental parser; the objects and cluster configuration
 * merged across them; the timing they give with the front end's settings; one cached analysis
 * per document version; and scenarios built from a user's choices.
 */
import { DEFAULT_VERSION, parseKubernetesVersion, type KubernetesVersion } from '../cluster/kubernetesVersion';
import { knobOfComponent, resolveTiming, TimingError, type ComponentKey, type TimingConfiguration, type TimingSetting } from '../cluster/timing';
import { analyseDocument, type InputProblem } from '../analysis/analyseDocument';
import { budgetSelects, selectsNamespacesByLabel, servicesInFront } from '../analysis/facts';
import type { Finding, Fix } from '../analysis/finding';
import { withEffect } from '../analysis/fixEffects';
import { suppressionFixes } from '../analysis/suppression';
import { hoverAt, type Hover } from '../analysis/hover';
import { workloadLenses, type WorkloadLens } from '../analysis/lenses';
import type { RuleContext } from '../analysis/rule';
import { clusterFor, durationFor, WorkloadSimulations } from '../analysis/workloadSimulation';
import { REJECTED, unsimulatedWorkloads, withinBudget } from '../analysis/notSimulated';
import { clusterFromNodes, clusterOf, type ClusterSpec } from '../cluster/clusterSpec';
import { decodeUtf8 } from '../manifest/decode';
import { formatCount } from '../manifest/formatCount';
import { metadataProblem, refKey, type ManifestObject } from '../manifest/objects';
import type { ManifestModel } from '../manifest/model';
import type { ConfigSetting } from '../manifest/model/clusterConfig';
import type { Node, Sourced, Workload } from '../manifest/model/types';
import { autoscalerOf } from '../manifest/model/autoscaling';
import { ManifestParser } from '../manifest/parseFile';
import type { Position, Range, SourceLocation } from '../manifest/range';
import { notUtf8Read, readManifestBytes, readManifestText, type NotUtf8, type ReadManifest } from '../manifest/readManifest';
import { API_REJECTED, INVALID_FIELD, SYNTAX_ERROR } from '../manifest/problem';
import type { Scenario } from '../sim/scenario';
import { matchingTolerations, minTolerationMs, UNREACHABLE, withDefaultTolerations } from '../sim/tolerations';
import { workloadsNamed } from '../sim/workloadTarget';
import { API_REJECTION_RULES, RULES } from '../analysis/rules';
import { nameProblem } from '../analysis/rules/apiValidationRules';
import type { FolderVersion } from './guidedChoices';
import { InputError } from './inputError';
import { patchReferences, skippedPatch, type PatchReference } from './kustomization';
import { mergeModels } from './mergeModels';
import { buildScenario } from './scenarioBuilder';
import { scenarioOfRead, SCENARIO_KIND } from './scenarioFile';
import type { ClusterText, RunTiming, SimulationChoices } from './simulationChoices';

/** The front end's settings: they apply to the analysis and to every simulation. */
export interface WorkspaceSettings {
  /** Kubernetes version for the defaults, with where it was set; otherwise a kubeadm ClusterConfiguration's, else the newest known. */
  version?: { value: string; source: string };
  profile?: string;
  /** Timing overrides by qualified name (kcm.node-monitor-grace-period), each with its source. */
  overrides: TimingSetting[];
  /** Rule ids not to run. */
  disabledRules?: readonly string[];
}

export interface DocumentAnalysis {
  uri: string;
  read: ReadManifest;
  findings: Finding[];
  timing: TimingConfiguration;
}

interface DocumentState {
  uri: string;
  /** The front end's version of the text (an editor's document version); -1 when it has none. */
  version: number;
  /** The editor said the file's bytes are not UTF-8. */
  notUtf8: boolean;
  /** Bumped on every new text. */
  revision: number;
  parser: ManifestParser;
  /** The file as read, and as the workspace reads it: a kustomize patch file is skipped (kustomization.ts). */
  own: ReadManifest;
  read: ReadManifest;
  /** The files this document lists as kustomize patches (none unless it is a kustomization). */
  patches: Map<string, PatchReference>;
  /** The kustomization and field that list this document as a patch, if any. */
  patchedBy?: string;
  /** What other documents' analyses depend on: changes to it invalidate them. */
  contextSignature: string;
  /** `effects`: fix titles with their simulated effect, computed once per analysis (the editor asks on every cursor move). */
  analysis?: { key: string; result: DocumentAnalysis; context: RuleContext; effects: Map<Fix, Fix> };
}

/** Timing for analysis: never throws; what could not be used is reported where it is written. */
interface LenientTiming {
  timing: TimingConfiguration;
  problems: InputError[];
  /** Settings of files that a later file sets again (KFS092 warnings where they are written). */
  overridden: (InputProblem & { uri: string })[];
}

const NEWEST_KNOWN = 'newest known';

export class Workspace {
  private readonly documents = new Map<string, DocumentState>();
  private modelGeneration = 0;
  private contextGeneration = 0;
  private settingsGeneration = 0;
  private merged?: { generation: number; model: ManifestModel };
  private lenient?: { key: string; value: LenientTiming };
  private derived?: { generation: number; cluster: ClusterSpec; locations: Map<ManifestObject, string> };
  /** The documents that some kustomization of the workspace lists as patches. */
  private patchOf = new Map<string, PatchReference>();
  /** Per-workload default scenarios, shared by every document (typing in one simulates nothing of the others). */
  readonly simulations = new WorkloadSimulations();

  /** `displayName` names a document in sources ("cluster/kcm.yaml:9"). */
  constructor(private settings: WorkspaceSettings = { overrides: [] }, private readonly displayName: (uri: string) => string = (uri) => uri) {}

  setSettings(settings: WorkspaceSettings): void {
    this.settings = settings;
    this.settingsGeneration++;
  }

  /**
   * Adds or updates a document; the same version again is free, a new text re-parses only the
   * YAML documents that changed. Bytes are checked to be UTF-8 (a file read from disk).
   */
  setDocument(uri: string, text: string | Uint8Array, version = -1, notUtf8?: NotUtf8): ReadManifest {
    const existing = this.documents.get(uri);
    if (existing && version >= 0 && existing.version === version && existing.notUtf8 === (notUtf8 !== undefined)) return existing.read;
    const parser = existing?.parser ?? new ManifestParser();
    // An editor's text of a file whose bytes on disk are not UTF-8 (the editor decoded them): read as the CLI reads the bytes.
    const own = notUtf8 && typeof text === 'string' ? notUtf8Read(text, notUtf8) : typeof text === 'string' ? readManifestText(text, parser) : readManifestBytes(text, parser);
    const patches = patchReferences(uri, own);
    const reference = this.patchOf.get(uri);
    const read = reference ? skippedPatch(own, reference, this.displayName) : own;
    const contextSignature = signatureOf(read);
    if (existing?.contextSignature !== contextSignature) this.contextGeneration++;
    this.modelGeneration++;
    this.documents.set(uri, { uri, version, notUtf8: notUtf8 !== undefined, revision: (existing?.revision ?? 0) + 1, parser, own, read, patches, patchedBy: patchKey(reference), contextSignature, analysis: undefined });
    if (patches.size > 0 || (existing?.patches.size ?? 0) > 0) this.linkPatches();
    return read;
  }

  /** After a kustomization changed: each document is read as a patch exactly when some kustomization lists it. */
  private linkPatches(): void {
    this.patchOf = new Map();
    for (const doc of this.documents.values()) {
      for (const [target, reference] of doc.patches) if (!this.patchOf.has(target)) this.patchOf.set(target, reference);
    }
    for (const doc of this.documents.values()) {
      const reference = this.patchOf.get(doc.uri);
      if (patchKey(reference) === doc.patchedBy) continue;
      doc.patchedBy = patchKey(reference);
      doc.read = reference ? skippedPatch(doc.own, reference, this.displayName) : doc.own;
      doc.contextSignature = signatureOf(doc.read);
      doc.revision++;
      this.modelGeneration++;
      this.contextGeneration++;
    }
  }

  /**
   * Changes whenever what other documents' analyses depend on changes (a Service, a PVC, a
   * KubeletConfiguration, a controller-manager flag, a document added or removed): a front end
   * that shows findings for several documents re-publishes them all when it moves.
   */
  get contextRevision(): number {
    return this.contextGeneration;
  }

  removeDocument(uri: string): void {
    const doc = this.documents.get(uri);
    if (!doc) return;
    this.documents.delete(uri);
    this.modelGeneration++;
    this.contextGeneration++;
    if (doc.patches.size > 0) this.linkPatches();
  }

  has(uri: string): boolean {
    return this.documents.has(uri);
  }

  uris(): string[] {
    return [...this.documents.keys()];
  }

  read(uri: string): ReadManifest {
    return this.document(uri).read;
  }

  /** Every object of every document, in document order. */
  model(): ManifestModel {
    if (this.merged?.generation !== this.modelGeneration) {
      this.merged = { generation: this.modelGeneration, model: mergeModels([...this.documents.values()].map((d) => d.read.model)) };
    }
    return this.merged.model;
  }

  /** The document's findings, computed once per version of it, of the other documents it depends on, and of the settings. */
  analyse(uri: string): DocumentAnalysis {
    return this.analysed(uri).result;
  }

  /** Markdown explaining the field at a position, with the workload's simulated numbers. */
  hover(uri: string, position: Position): Hover | undefined {
    const { context } = this.analysed(uri);
    return hoverAt(context, context.document.parsed.lines.offset(position));
  }

  /** The CodeLens of each workload of the document. */
  lenses(uri: string): WorkloadLens[] {
    return workloadLenses(this.analysed(uri).context);
  }

  /**
   * The fixes of the findings that touch `range` (all findings when none), with their simulated
   * effect in the title; `preferredOnly` for "fix all", which needs no effect.
   */
  fixes(uri: string, range?: Range, preferredOnly = false): { finding: Finding; fix: Fix }[] {
    const { result, context, effects } = this.analysed(uri);
    const touches = (f: Finding) => !range || (compare(f.range.start, range.end) <= 0 && compare(range.start, f.range.end) <= 0);
    return result.findings.filter(touches).flatMap((finding) => {
      if (preferredOnly) return (finding.fixes ?? []).filter((fix) => fix.preferred).map((fix) => ({ finding, fix }));
      const own = (finding.fixes ?? []).map((fix) => {
        let shown = effects.get(fix);
        if (!shown) effects.set(fix, (shown = withEffect(fix, context)));
        return shown;
      });
      return [...own, ...suppressionFixes(context.document, finding)].map((fix) => ({ finding, fix }));
    });
  }

  private analysed(uri: string): NonNullable<DocumentState['analysis']> {
    const doc = this.document(uri);
    const key = this.analysisKey(doc);
    if (doc.analysis?.key === key) return doc.analysis;
    const { context, located, timing, checked } = this.ruleContext(doc);
    const findings = analyseDocument(context, located, { disabled: new Set(this.settings.disabledRules ?? []), checked });
    findings.push(...scenarioFindings(doc.read));
    doc.analysis = { key, result: { uri, read: doc.read, findings, timing }, context, effects: new Map() };
    return doc.analysis;
  }

  private analysisKey(doc: DocumentState): string {
    return `${doc.revision}/${this.contextGeneration}/${this.settingsGeneration}`;
  }

  /**
   * The findings of the rules that say what the API server refuses, alone: they simulate
   * nothing, so `simulate` does not run the per-workload simulations of every rule to learn
   * whether it may start. The document's full analysis, when it is current, has them already.
   */
  private rejectionFindings(uri: string): Finding[] {
    const doc = this.document(uri);
    if (doc.analysis?.key === this.analysisKey(doc)) return doc.analysis.result.findings;
    const { context, located, checked } = this.ruleContext(doc);
    const others = RULES.map((rule) => rule.id).filter((id) => !API_REJECTION_RULES.includes(id));
    return analyseDocument(context, located, { disabled: new Set([...(this.settings.disabledRules ?? []), ...others]), checked });
  }

  /** `checked`: the findings of the rejection rules, which the context needs for its unsimulated workloads; the analysis takes them as they are. */
  private ruleContext(doc: DocumentState): { context: RuleContext; located: InputProblem[]; timing: TimingConfiguration; checked: Map<string, Finding[]> } {
    const uri = doc.uri;
    const { timing, problems, overridden } = this.lenientTiming();
    const { cluster, locations } = this.derivedState();
    const unsimulated = unsimulatedWorkloads(doc.read, cluster);
    const context: RuleContext = {
      document: doc.read, workspace: this.model(), timing, cluster, simulations: withinBudget(this.simulations, unsimulated), unsimulated,
      locate: (object) => {
        const at = locations.get(object);
        return at === undefined ? undefined : { uri: at, range: object.range };
      },
    };
    // A workload that a rule finds the API server rejects would never run either: no numbers for it.
    const checked = new Map(RULES.filter((rule) => API_REJECTION_RULES.includes(rule.id)).map((rule) => [rule.id, rule.check(context)]));
    const rejected = new Set([...checked.values()].flat().flatMap((f) => (f.severity === 'error' && f.object ? [refKey(f.object)] : [])));
    for (const workload of doc.read.model.workloads) {
      if (rejected.has(refKey(workload)) && !unsimulated.has(workload)) unsimulated.set(workload, REJECTED);
    }
    // A setting that simulate refuses is an error here too; a version it falls back from, a warning.
    // One problem of two settings written by one field (shutdownGracePeriodByPodPriority) is said once.
    const said = new Set<string>();
    const located: InputProblem[] = problems.flatMap((p) => {
      const key = `${p.at?.range.start.line}:${p.at?.range.start.character} ${p.message}`;
      if (p.at?.uri !== uri || said.has(key)) return [];
      said.add(key);
      return [{ message: p.message, range: p.at.range, severity: p.choice === 'setting' ? 'error' as const : 'warning' as const }];
    });
    located.push(...overridden.filter((p) => p.uri === uri));
    return { context, located, timing, checked };
  }

  /**
   * The timing of this workspace: the version's defaults, the preset, the cluster files, then the
   * overrides; with a run's own timing settings over (or instead of) the front end's. Throws InputError.
   */
  timing(run?: RunTiming): TimingConfiguration {
    const settings = this.runSettings(run);
    const ignored: InputError[] = [];
    const { version, versionSource } = this.version(true, ignored, settings.version);
    try {
      const timing = resolveTiming({ version, versionSource, profile: settings.profile, settings: [...this.clusterSettings(), ...settings.overrides] });
      // A control-plane image of a version the simulator does not know: the run says which defaults it used instead.
      const notes = ignored.map((e) => `${e.at ? `${this.label(e.at.uri, e.at.range)}: ` : ''}version ${e.value}: ${e.problem}`);
      return notes.length === 0 ? timing : { ...timing, notes: [...timing.notes, ...notes] };
    } catch (error) {
      throw error instanceof TimingError ? timingInputError(error) : error;
    }
  }

  /** What is wrong with the front end's settings (a version, preset or knob it does not know); problems written in files are findings instead. */
  settingsProblems(): InputError[] {
    return this.lenientTiming().problems.filter((p) => !p.at);
  }

  /** A scenario from the user's choices. Throws InputError when the choices do not fit the input. */
  scenario(choices: SimulationChoices): Scenario {
    const timing = this.timing(choices.timing);
    let objects = this.model();
    let workloads = objects.workloads;
    if (choices.documents) {
      for (const uri of choices.documents) this.document(uri);
      workloads = choices.documents.flatMap((uri) => this.document(uri).read.model.workloads);
      // What the run reads besides: the documents a scenario saved from it lists, so that the CLI runs it the same.
      const context = this.contextDocuments(choices.documents);
      if (context.length + choices.documents.length < this.documents.size) objects = mergeModels([...choices.documents, ...context].map((uri) => this.document(uri).read.model));
    }
    // No workload because the YAML could not be read: that is what to fix, not a file without workloads.
    if (workloads.length === 0) {
      for (const uri of choices.documents ?? [...this.documents.keys()]) {
        const syntax = this.document(uri).read.parsed.problems.find((p) => p.ruleId === SYNTAX_ERROR && p.severity === 'error');
        if (syntax) throw new InputError('workloads', undefined, `${syntax.message.replace(/\.$/, '')} at line ${syntax.range.start.line + 1}: the YAML cannot be read there, so no workload was found. Fix it first.`, { uri, range: syntax.range });
      }
    }
    const cluster = choices.cluster ? clusterFromNodes(choices.cluster.nodes, choices.cluster.source)
      : choices.clusterText ? clusterFromNodes(clusterNodes(choices.clusterText), choices.clusterText.source)
      : this.model().nodes.length > 0 ? this.derivedState().cluster : defaultClusterFor(workloads, objects, choices.targets);
    const durationMs = choices.lengthenForTolerations ? Math.max(choices.durationMs, durationFor(...workloads)) : choices.durationMs;
    return buildScenario({ workloads, objects, timing, cluster, locate: (w) => this.locate(w.source) }, { ...choices, durationMs });
  }

  /**
   * The other documents a run of `simulated` reads besides them and that matter to its workloads:
   * cluster configuration (timing, version), Node objects, the Services that select their pods,
   * volumes when they claim any, and their autoscalers. A scenario
   * saved from an editor's run lists them, since the CLI reads only the files a scenario names,
   * and simulates every workload of each (a folder's unrelated manifests would join the run).
   */
  contextDocuments(simulated: readonly string[]): string[] {
    const workloads = simulated.flatMap((uri) => this.documents.get(uri)?.read.model.workloads ?? []);
    const claims = workloads.some((w) => w.template.spec.volumes.some((v) => v.source === 'persistentVolumeClaim') || (w.kind === 'StatefulSet' && w.volumeClaimTemplates.length > 0));
    return [...this.documents.values()].filter(({ uri, read: { model } }) => {
      if (simulated.includes(uri)) return false;
      const { kubelet, controllerManager, apiServer, kubernetesVersion, imageVersions } = model.clusterConfig;
      return kubelet.length + controllerManager.length + apiServer.length + imageVersions.length > 0 || kubernetesVersion !== undefined
        || model.nodes.length > 0 || workloads.some((w) => servicesInFront(w, model.services).length > 0)
        || (claims && model.persistentVolumeClaims.length + model.persistentVolumes.length + model.storageClasses.length > 0)
        || workloads.some((w) => autoscalerOf(w, model) !== undefined)
        || (model.namespaces.length > 0 && workloads.some(selectsNamespacesByLabel))
        // Priorities decide who preempts whom: the classes the pods name, or a default one; the budgets that protect their pods.
        || model.priorityClasses.some((c) => c.globalDefault || workloads.some((w) => w.template.spec.priorityClassName === c.name))
        || model.podDisruptionBudgets.some((pdb) => workloads.some((w) => budgetSelects(pdb, w)));
    }).map((doc) => doc.uri);
  }

  /** The objects of these documents the API server would refuse to store, as findings (the CLI simulates nothing then). */
  rejections(uris: readonly string[]): { uri: string; finding: Finding }[] {
    return uris.flatMap((uri) => this.rejectionFindings(uri)
      .filter((finding) => finding.severity === 'error' && API_REJECTION_RULES.includes(finding.ruleId))
      .map((finding) => ({ uri, finding })));
  }

  /** Where an object of some document is written. */
  locate(object: ManifestObject): SourceLocation | undefined {
    const uri = this.derivedState().locations.get(object);
    return uri === undefined ? undefined : { uri, range: object.range };
  }

  /** The cluster simulations run on and where each object is written, once per change of the model. */
  private derivedState(): { cluster: ClusterSpec; locations: Map<ManifestObject, string> } {
    if (this.derived?.generation !== this.modelGeneration) {
      const nodes = this.model().nodes;
      const locations = new Map<ManifestObject, string>();
      for (const doc of this.documents.values()) for (const object of doc.read.objects) locations.set(object, doc.uri);
      this.derived = { generation: this.modelGeneration, cluster: clusterOf(nodes), locations };
    }
    return this.derived;
  }

  private document(uri: string): DocumentState {
    const doc = this.documents.get(uri);
    if (!doc) throw new InputError('workloads', uri, 'no such document in the workspace.');
    return doc;
  }

  private label(uri: string, range: Range): string {
    return `${this.displayName(uri)}:${range.start.line + 1}`;
  }

  /** The front end's version, preset and overrides, with a run's own over them (or instead of them). */
  private runSettings(run: RunTiming | undefined): Pick<WorkspaceSettings, 'version' | 'profile' | 'overrides'> {
    if (!run) return this.settings;
    const base: Pick<WorkspaceSettings, 'version' | 'profile' | 'overrides'> = run.replacesSettings ? { overrides: [] } : this.settings;
    return {
      version: run.version ?? base.version,
      profile: run.profile === null ? undefined : run.profile ?? base.profile,
      overrides: [...base.overrides, ...(run.overrides ?? [])],
    };
  }

  /** The version the folder's files say (a ClusterConfiguration, else a control-plane image), whatever the settings say; undefined: none. */
  /**
   * How long the pods of each workload of the document tolerate the unreachable taint, as the API
   * server admits them (seconds; null: forever), and the API server's default.
   */
  unreachableTolerations(uri: string): { seconds: (number | null)[]; defaultSeconds: number } {
    const { apiServer } = this.lenientTiming().timing;
    const defaultSeconds = apiServer.defaultUnreachableTolerationSeconds.value;
    const taint = [{ key: UNREACHABLE, value: '', effect: 'NoExecute' as const }];
    const seconds = this.document(uri).read.model.workloads.map((w) => {
      const matching = matchingTolerations(taint, withDefaultTolerations(w.template.spec.tolerations, apiServer.defaultNotReadyTolerationSeconds.value, defaultSeconds));
      const ms = matching ? minTolerationMs(matching) : 0;
      return ms < 0 ? null : ms / 1000;
    });
    return { seconds, defaultSeconds };
  }

  folderVersion(): FolderVersion | undefined {
    const { version, versionSource } = this.version(false, [], null);
    return versionSource === NEWEST_KNOWN ? undefined : { version: version.label, source: versionSource };
  }

  /** `fromSettings`: null for none, whatever the settings say. */
  private version(strict: boolean, problems: InputError[] = [], fromSettings: WorkspaceSettings['version'] | null = this.settings.version): { version: KubernetesVersion; versionSource: string } {
    if (fromSettings) {
      const parsed = parseKubernetesVersion(fromSettings.value);
      if (typeof parsed !== 'string') return { version: parsed, versionSource: fromSettings.source };
      const error = new InputError('version', fromSettings.value, parsed);
      if (strict) throw error;
      problems.push(error);
    }
    // A kubeadm ClusterConfiguration's kubernetesVersion, else a control-plane image's tag.
    const written = [...this.documents.values()].flatMap((doc) => {
      const { kubernetesVersion, imageVersions } = doc.read.model.clusterConfig;
      return kubernetesVersion ? [{ doc, setting: kubernetesVersion, rank: 0 }] : imageVersions.map((setting) => ({ doc, setting, rank: 1 }));
    }).sort((a, b) => a.rank - b.rank);
    // An image of a version the simulator does not know is no mistake in the input: the next image may
    // tell the version; if none does, the defaults apply, said where each such image is.
    const unknownImages: InputError[] = [];
    for (const { doc, setting, rank } of written) {
      const parsed = parseKubernetesVersion(String(setting.value));
      const at = { uri: doc.uri, range: setting.range };
      if (typeof parsed !== 'string') return { version: parsed, versionSource: this.label(doc.uri, setting.range) };
      const error = new InputError('version', String(setting.value), `${parsed} The defaults of ${DEFAULT_VERSION} are used.`, at);
      if (rank === 1) {
        unknownImages.push(error);
        continue;
      }
      if (strict) throw error;
      problems.push(error);
      break;
    }
    problems.push(...unknownImages);
    return { version: parseKubernetesVersion(DEFAULT_VERSION) as KubernetesVersion, versionSource: NEWEST_KNOWN };
  }

  /** Timing settings from KubeletConfiguration fields and component flags the simulator knows, with file:line sources. */
  private clusterSettings(): TimingSetting[] {
    const settings: TimingSetting[] = [];
    for (const doc of this.documents.values()) {
      const add = (component: ComponentKey, list: ConfigSetting[]) => {
        for (const s of list) {
          const ref = knobOfComponent(component, s.name);
          const source = s.via ? `${this.label(doc.uri, s.range)}, --${s.via}` : this.label(doc.uri, s.range);
          if (ref) settings.push({ name: ref.qualifiedName, value: s.value, source, location: { uri: doc.uri, range: s.range }, ...(s.requires ? { requires: s.requires } : {}), ...(s.via ? { via: s.via } : {}) });
        }
      };
      const config = doc.read.model.clusterConfig;
      add('kubelet', config.kubelet);
      add('controllerManager', config.controllerManager);
      add('apiServer', config.apiServer);
    }
    return settings;
  }

  private lenientTiming(): LenientTiming {
    const key = `${this.contextGeneration}/${this.settingsGeneration}`;
    if (this.lenient?.key === key) return this.lenient.value;
    const problems: InputError[] = [];
    const { version, versionSource } = this.version(false, problems);
    const clusterSettings = this.clusterSettings();
    const request = { version, versionSource, settings: [...clusterSettings, ...this.settings.overrides], onError: (e: TimingError) => problems.push(timingInputError(e)) };
    let timing: TimingConfiguration;
    try {
      timing = resolveTiming({ ...request, profile: this.settings.profile });
    } catch (error) {
      if (!(error instanceof TimingError)) throw error;
      problems.push(timingInputError(error));
      timing = resolveTiming(request);
    }
    this.lenient = { key, value: { timing, problems, overridden: overriddenSettings(clusterSettings) } };
    return this.lenient.value;
  }
}

/**
 * The Node objects of a cluster file's text (`kubectl get nodes -o yaml`). A YAML error is an
 * error here, at its line: a cluster read in part would simulate another cluster.
 */
function clusterNodes({ texts, source, files }: ClusterText) {
  const fileOf = new Map<Sourced<Node>, string | undefined>();
  const nodes = texts.flatMap((text, i) => {
    const file = texts.length === 1 ? source : files?.[i];
    let read: ReadManifest;
    if (typeof text === 'string') read = readManifestText(text);
    else {
      const { invalidByteOffset, invalidByte } = decodeUtf8(text);
      if (invalidByteOffset !== undefined) throw new InputError('cluster', file ?? source, `it is not UTF-8 text (byte 0x${invalidByte!.toString(16).toUpperCase().padStart(2, '0')} at offset ${formatCount(invalidByteOffset)}).`);
      read = readManifestBytes(text);
    }
    // A YAML error, or a Node field the API server would refuse (allocatable cpu "-4").
    const problem = read.parsed.problems.find((p) => p.ruleId === SYNTAX_ERROR)
      ?? read.problems.find((p) => (p.ruleId === INVALID_FIELD || p.ruleId === API_REJECTED) && p.severity === 'error' && p.object?.kind === 'Node');
    // A Node without a string name, or with one that is not a DNS subdomain: the API server refuses it,
    // as it does when the file is given as a manifest (KFS094).
    const badName = read.model.nodes.map((n): { range: Range; message: string } | undefined => {
      const meta = metadataProblem(n.source);
      if (meta) return meta;
      const why = nameProblem(n.source);
      return why ? { range: n.source.sourceMap.closestRange(['metadata', 'name']), message: `${JSON.stringify(n.name)} is not a valid name (${why})` } : undefined;
    }).find((p) => p !== undefined);
    const located = problem ?? (badName && { ...badName, message: `The API server rejects this Node: ${badName.message}.` });
    if (located && file !== undefined) throw new InputError('cluster', source, located.message, { uri: file, range: located.range });
    if (located) throw new InputError('cluster', source, `${located.message} (line ${located.range.start.line + 1}, column ${located.range.start.character + 1} of one of its texts)`);
    for (const node of read.model.nodes) fileOf.set(node, file);
    return read.model.nodes;
  });
  if (nodes.length === 0) throw new InputError('cluster', source, 'it has no Node objects (expected the output of kubectl get nodes -o yaml).');
  const first = new Map<string, Sourced<Node>>();
  for (const node of nodes) {
    const earlier = first.get(node.name);
    if (earlier) {
      const file = fileOf.get(node);
      const range = node.source.sourceMap.closestRange(['metadata', 'name']);
      const where = fileOf.get(earlier) === file ? `line ${earlier.source.range.start.line + 1}` : fileOf.get(earlier) ?? 'another text';
      const problem = `Node ${node.name} is listed twice (first at ${where}); a cluster has one Node object per name.`;
      throw file !== undefined ? new InputError('cluster', source, problem, { uri: file, range }) : new InputError('cluster', source, problem);
    }
    first.set(node.name, node);
  }
  return nodes;
}

/** A FailureScenario's problems, as simulate --scenario would report them (its YAML errors are findings already). */
function patchKey(reference: PatchReference | undefined): string | undefined {
  return reference && `${reference.kustomization}\n${reference.field}`;
}

function scenarioFindings(read: ReadManifest): Finding[] {
  if (!read.objects.some((o) => o.kind === SCENARIO_KIND)) return [];
  const syntax = new Set(read.parsed.problems.map((p) => p.message));
  return scenarioOfRead(read).problems.filter((p) => !syntax.has(p.message))
    .map((p) => ({ ruleId: INVALID_FIELD, severity: 'error' as const, range: p.range, message: p.message.endsWith('.') ? p.message : `${p.message}.` }));
}

/** A setting that a later file of the workspace sets again: that one is used (the files in the order they were given). */
function overriddenSettings(settings: readonly TimingSetting[]): (InputProblem & { uri: string })[] {
  const last = new Map(settings.map((s) => [s.name, s]));
  return settings.flatMap((s) => {
    const winner = last.get(s.name)!;
    if (winner === s || !s.location) return [];
    return [{ uri: s.location.uri, range: s.location.range, severity: 'warning' as const, message: `${s.name} is set again at ${winner.source}; this value (${String(s.value)}) is not used, that one (${String(winner.value)}) is.` }];
  });
}

function timingInputError(error: TimingError): InputError {
  const setting = error.setting;
  if (!setting) return new InputError('profile', undefined, error.message);
  return new InputError('setting', undefined, error.message, setting.location, setting.name);
}

/**
 * What other documents' analyses read from this one: cluster configuration, the objects that
 * explain workloads (Services, PDBs, volumes, Nodes, Namespaces, autoscalers, priority classes) and the workloads' identities and labels.
 */
function signatureOf(read: ReadManifest): string {
  const parts: string[] = [];
  for (const object of read.objects) {
    switch (object.kind) {
      case 'Service': case 'PodDisruptionBudget': case 'PersistentVolumeClaim': case 'PersistentVolume': case 'StorageClass':
      case 'Node': case 'Namespace': case 'HorizontalPodAutoscaler': case 'PriorityClass': case 'KubeletConfiguration': case 'ClusterConfiguration':
        parts.push(JSON.stringify(object.value));
        break;
      default:
        parts.push(`${object.kind}/${object.namespace}/${object.name}`);
    }
  }
  const { clusterConfig, workloads } = read.model;
  parts.push(JSON.stringify(clusterConfig), JSON.stringify(workloads.map((w) => w.template.labels)));
  return parts.join('\n');
}

function compare(a: Position, b: Position): number {
  return a.line - b.line || a.character - b.character;
}

/**
 * Without Node objects: the default cluster fitted to what the run's one workload asks of a node
 * (the target Kind/name, or the only workload), as the findings, hovers and CodeLens simulate it:
 * a pod pinned by a nodeSelector finds its nodes in the run their link starts. Among several, one
 * workload's fitting (a zone, a renamed node) would change the others' runs: the plain default then.
 */
function defaultClusterFor(workloads: readonly Sourced<Workload>[], objects: ManifestModel, targets: readonly string[]): ClusterSpec {
  const named = targets.filter((t) => t.includes('/') && !/^(node|zone)\//i.test(t)).flatMap((t) => workloadsNamed(workloads, t));
  const workload = named.length === 1 ? named[0] : workloads.length === 1 ? workloads[0] : undefined;
  return workload ? clusterFor(workload, objects, `${workload.kind}/${workload.name}`) : clusterOf([]);
}
