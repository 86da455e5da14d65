// The dialog for a question the agent waits for (seed 002 HITL): an approval (approve, reject with or
// without a reason, approve edited arguments), a blocking tool's feedback (confirm, text, number, date, select,
// multiselect, custom JSON), an unknown outcome, or a failed file edit. Builds the fields and the
// buttons; `readAnswer` turns what the user chose into the feedback `resume` takes.
import { element, humanize } from './render.js';

// Each choice: the button's value, its label, and the answer it sends (the runtime's feedback schemas
// of src/hitl/decision-feedback.ts: an object with a `decision`).
const choiceSets = {
  outcome_unknown: [
    ['happened', 'It happened', { decision: 'happened' }],
    ['not-happened', 'It did not happen: run it', { decision: 'not-happened' }],
    ['skip', 'Skip it', { decision: 'skip' }],
  ],
  rollback: [
    ['rollback', 'Roll back the files', { decision: 'rollback' }],
    // Files changed again after the call make a plain rollback refuse (it would undo those changes too).
    ['rollback-force', 'Roll back, even over later changes', { decision: 'rollback', force: true }],
    ['keep', 'Keep the changes', { decision: 'keep' }],
    ['continue', 'Continue', { decision: 'continue' }],
  ],
};

/** The form a question takes: its own for feedback and the two choices, an approval otherwise. */
function formKind(suspension) {
  const kind = suspension.kind;
  return kind === 'feedback' || Object.hasOwn(choiceSets, kind ?? '') ? kind : 'approval';
}

/**
 * Every argument of the call with the label a person reads: in the tool's input-schema order under its
 * title when the runtime sent the tool's words (`callWords`), then any others by their names.
 */
function argumentsInOrder(input, words) {
  const listed = (words?.arguments ?? []).filter((a) => Object.hasOwn(input, a.name));
  const named = new Set(listed.map((a) => a.name));
  return [
    ...listed.map((a) => [a.title ?? humanize(a.name), input[a.name]]),
    ...Object.keys(input)
      .filter((name) => !named.has(name))
      .map((name) => [humanize(name), input[name]]),
  ];
}

/** Fields and buttons (each button's value names the choice) for one suspension. */
export function buildSuspensionForm(suspension) {
  const kind = formKind(suspension);
  if (kind === 'approval') {
    const input = suspension.input && typeof suspension.input === 'object' ? suspension.input : {};
    const words = suspension.callWords;
    return {
      kind,
      title: `Approve: ${words?.title ?? humanize(suspension.toolName)}?`,
      fields: [
        // Every argument as the call would send it, in words before the JSON that can be edited.
        element(
          'dl',
          { id: 'approval-details' },
          ...argumentsInOrder(input, words).flatMap(([label, value]) => [
            element('dt', { text: label }),
            element('dd', { text: typeof value === 'string' ? value : JSON.stringify(value) }),
          ]),
        ),
        labelled(
          'Details as sent (edit them to approve different ones)',
          element('textarea', {
            id: 'approval-arguments',
            rows: 6,
            spellcheck: 'false',
            text: JSON.stringify(suspension.input ?? {}, null, 2),
          }),
        ),
        labelled(
          'Reason, when you reject (optional)',
          element('input', { id: 'approval-reject-reason', type: 'text' }),
        ),
      ],
      buttons: [
        ['approve', 'Approve'],
        ['edit', 'Approve edited arguments'],
        ['reject', 'Reject'],
      ],
    };
  }
  if (choiceSets[kind])
    return {
      kind,
      title: `${humanize(suspension.toolName)}: what now?`,
      fields: [],
      buttons: choiceSets[kind].map(([value, label]) => [value, label]),
    };
  const schema = suspension.feedback ?? { type: 'text' };
  const title = `${humanize(suspension.toolName)} asks`;
  switch (schema.type) {
    case 'confirm':
      return {
        title,
        fields: [],
        buttons: [
          ['yes', 'Yes'],
          ['no', 'No'],
        ],
      };
    case 'number':
      return {
        title,
        fields: [
          labelled(
            'Your answer',
            element('input', { id: 'answer-value', type: 'number', min: schema.min, max: schema.max }),
          ),
        ],
        buttons: [['send', 'Send']],
      };
    case 'date':
      return {
        title,
        fields: [
          labelled(
            'Your answer',
            element('input', { id: 'answer-value', type: 'date', min: schema.min, max: schema.max }),
          ),
        ],
        buttons: [['send', 'Send']],
      };
    case 'select': {
      const select = element(
        'select',
        { id: 'answer-value' },
        ...schema.options.map((o) => element('option', { value: o.value, text: o.label ?? o.value })),
      );
      return { title, fields: [labelled('Your choice', select)], buttons: [['send', 'Send']] };
    }
    case 'multiselect':
      return {
        title,
        fields: schema.options.map((o) =>
          element(
            'label',
            { class: 'choice' },
            element('input', { type: 'checkbox', name: 'answer-option', value: o.value }),
            element('span', { text: o.label ?? o.value }),
          ),
        ),
        buttons: [['send', 'Send']],
      };
    case 'custom':
      return {
        title,
        fields: [
          labelled(
            'Your answer (JSON)',
            element('textarea', { id: 'answer-value', rows: 6, spellcheck: 'false', text: '{}' }),
          ),
        ],
        buttons: [['send', 'Send']],
      };
    default:
      return {
        title,
        fields: [labelled('Your answer', element('textarea', { id: 'answer-value', rows: 3 }))],
        buttons: [['send', 'Send']],
      };
  }
}

/** The feedback for the chosen button, or `{ error }` to show instead of sending. */
export function readAnswer(suspension, choice, form) {
  const kind = formKind(suspension);
  if (kind === 'approval') {
    if (choice === 'approve') return { feedback: { decision: 'approve' } };
    if (choice === 'reject') {
      const reason = form.querySelector('#approval-reject-reason').value.trim();
      // The reason is optional, as in the API: a plain no is an answer too.
      return { feedback: reason ? { decision: 'reject', reason } : { decision: 'reject' } };
    }
    try {
      return {
        feedback: {
          decision: 'edit',
          arguments: JSON.parse(form.querySelector('#approval-arguments').value),
        },
      };
    } catch {
      return { error: 'The arguments are not valid JSON.' };
    }
  }
  if (choiceSets[kind]) {
    const picked = choiceSets[kind].find(([value]) => value === choice);
    return picked ? { feedback: picked[2] } : { error: 'Pick one of the choices.' };
  }
  const schema = suspension.feedback ?? { type: 'text' };
  if (schema.type === 'confirm') return { feedback: choice === 'yes' };
  if (schema.type === 'multiselect')
    return {
      feedback: [...form.querySelectorAll('input[name="answer-option"]:checked')].map((input) => input.value),
    };
  const value = form.querySelector('#answer-value').value;
  if (schema.type === 'number')
    return value === '' ? { error: 'Give a number.' } : { feedback: Number(value) };
  if (schema.type === 'custom') {
    try {
      return { feedback: JSON.parse(value) };
    } catch {
      return { error: 'The answer is not valid JSON.' };
    }
  }
  return value.trim() === '' ? { error: 'Give an answer.' } : { feedback: value };
}

function labelled(text, control) {
  return element('label', {}, element('span', { text }), control);
}
