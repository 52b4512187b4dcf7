/**
 * The registry editor's edits (no vscode): one edit of the edit panel (media/registry/protocol.ts
 * `RegistryEdit`) applied to core's registry model (core/formats/registry: `openRegistry`, the
 * edit functions, each re-validated with the reader's checks and refused with a typed error when
 * it breaks one). An applied edit is a step holding the model before and after it: core's models
 * are immutable values, so the step's inverse is exact (undo gives the bytes back, every one),
 * including for the edits whose "opposite" edit would not (a delete's object comes back at its
 * place, with its bindings' shared runs and its group memberships as they were).
 */
import {
  type RegistryModel as CoreRegistry,
  addObject,
  blockOf,
  deleteObject,
  openRegistry,
  renameObject,
  setGroupMembers,
  setObjectBinding,
  setObjectClass,
  saveRegistry,
  setObjectTransform,
} from '../../core/formats/registry';
import type { RegistryEdit } from '../../media/registry/protocol';
import type { EditableModel } from './editableModel';
import { type RegistryInput, type RegistryModel, buildRegistryModel } from './registryModel';

/** One applied edit: what it was, the models on either side, and what the view selects after it. */
export interface RegistryEditStep {
  edit: RegistryEdit;
  /** For the undo stack's menu and the log ("Move GateAlarm_00.SR"). */
  label: string;
  before: CoreRegistry;
  after: CoreRegistry;
  /** The object to select once the step is applied (the added or renamed one; none after a delete). */
  select?: string;
}

/** A short label for an edit. */
export function editLabel(edit: RegistryEdit): string {
  switch (edit.kind) {
    case 'transform':
      return `${edit.position ? 'Move' : 'Turn'} ${edit.object}`;
    case 'rename':
      return `Rename ${edit.object} to ${edit.name}`;
    case 'class':
      return `Set the class of ${edit.object} to ${edit.className}`;
    case 'binding':
      return `Bind ${edit.object}: ${edit.event} → ${edit.function}`;
    case 'group':
      return `Set the group of ${edit.owner} (${edit.members.length} members)`;
    case 'add':
      return `Add ${edit.name}`;
    case 'delete':
      return `Delete ${edit.object}`;
  }
}

/** The model after `edit` (core's typed error, nothing changed, when it is refused). */
function applied(model: CoreRegistry, edit: RegistryEdit): CoreRegistry {
  switch (edit.kind) {
    case 'transform':
      return setObjectTransform(model, edit.object, { position: edit.position, rotationDegrees: edit.rotationDegrees });
    case 'rename':
      return renameObject(model, edit.object, edit.name);
    case 'class':
      return setObjectClass(model, edit.object, edit.className);
    case 'binding':
      return setObjectBinding(model, edit.object, edit.k, { event: edit.event, function: edit.function });
    case 'group':
      return setGroupMembers(model, edit.owner, edit.members);
    case 'add': {
      // Added to the world set when there is one (the last set otherwise: core's default).
      return addObject(model, { name: edit.name, className: edit.className, position: edit.position });
    }
    case 'delete':
      return deleteObject(model, edit.object);
  }
}

/** Apply one edit: the step (throws core's typed error when the edit is refused; `model` is unchanged). */
export function applyRegistryEdit(model: CoreRegistry, edit: RegistryEdit): RegistryEditStep {
  const after = applied(model, edit);
  const select =
    edit.kind === 'rename' ? edit.name : edit.kind === 'add' ? edit.name : edit.kind === 'delete' ? undefined : 'object' in edit ? edit.object : edit.owner;
  return { edit, label: editLabel(edit), before: model, after, ...(select ? { select } : {}) };
}

/** The step that undoes `step` (its models swapped; it selects what the edit had selected before). */
export function inverseStep(step: RegistryEditStep): RegistryEditStep {
  const e = step.edit;
  const select = e.kind === 'rename' ? e.object : e.kind === 'delete' ? e.object : e.kind === 'add' ? undefined : step.select;
  return { edit: e, label: `Undo ${step.label}`, before: step.after, after: step.before, ...(select ? { select } : {}) };
}

/** Whether the registry's three editable blocks were decoded (else the panel says why it cannot edit). */
export function editableReason(model: CoreRegistry): string | null {
  if (blockOf(model, 'OBJL')) return null;
  const raw = model.blocks.find((b) => b.kind === 'raw' && b.tag === 'OBJL');
  return raw?.kind === 'raw' ? `The OBJL block is kept as bytes (${raw.why ?? 'not decoded'}): objects cannot be edited.` : 'The registry has no OBJL block.';
}

/**
 * The registry editor's document model: core's registry (what edits change and saves write) and
 * the view built from its bytes (registryModel.ts), rebuilt after each change on first use. Its
 * `apply`/`serialize` are the editable skeleton's `EditableModel` (editableModel.ts).
 */
export class EditableRegistry implements EditableModel<RegistryEdit> {
  private built: RegistryModel | undefined;
  /** The object the views select after the last change (the added or renamed one). */
  select: string | undefined;
  /** Why the registry's objects cannot be edited, or null. */
  readonly blocked: string | null;

  constructor(
    private core: CoreRegistry,
    /** What the view is built from besides the bytes (path, part script, patch rule). */
    private readonly input: Omit<RegistryInput, 'bytes'>,
    first?: RegistryModel,
  ) {
    this.built = first;
    this.blocked = editableReason(core);
  }

  /** Open a registry's bytes: the view (the reader's typed errors when the chain does not parse) and core's model. */
  static open(bytes: Uint8Array, input: Omit<RegistryInput, 'bytes'>): EditableRegistry {
    const first = buildRegistryModel({ ...input, bytes });
    return new EditableRegistry(openRegistry(bytes, input.path), input, first);
  }

  /** The view of the registry as it is now. */
  get current(): RegistryModel {
    this.built ??= buildRegistryModel({ ...this.input, bytes: saveRegistry(this.core) });
    return this.built;
  }

  /** Apply an edit (core's typed error, nothing changed, when refused); returns what undoes it exactly. */
  apply(edit: RegistryEdit): () => void {
    const step = applyRegistryEdit(this.core, edit);
    this.set(step.after, step.select);
    const undo = inverseStep(step);
    return () => this.set(undo.after, undo.select);
  }

  serialize(): Uint8Array {
    return saveRegistry(this.core);
  }

  private set(model: CoreRegistry, select: string | undefined): void {
    this.core = model;
    this.built = undefined;
    this.select = select;
  }
}
