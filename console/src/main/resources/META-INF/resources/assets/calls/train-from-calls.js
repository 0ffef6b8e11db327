// "Train on selected calls": the selected chat calls become training data (POST /calls/trajectories, with the
// reward taken from their reactions or a feedback type) and start an RL job (ART's trajectory groups) or an SFT job
// (a training file uploaded to /v1/preview/files) on one of the project's trainable models. Every step is a
// public API call a script could make too; the job is then watched on the Training page.
import { h, replace, state } from '../shared/dom.js';
import { api } from '../shared/api.js';
import { href, navigate, projectPath } from '../shared/router.js';
import { projectModels } from '../training/training-page.js';

/** The request body of /calls/trajectories for the form's choices. */
function trajectoriesRequest(projectId, callIds, choices) {
  const body = { project_id: projectId, call_ids: callIds, format: choices.kind };
  if (choices.reward) body.reward = choices.reward;
  if (choices.kind === 'rl') body.group_by = choices.groupBy;
  if (choices.kind === 'sft' && choices.minReward !== '') body.min_reward = Number(choices.minReward);
  return body;
}

function describe(data, entity, project) {
  const count = data.trajectory_groups
    ? `${data.trajectory_groups.reduce((n, group) => n + group.trajectories.length, 0)} trajectories in ${data.trajectory_groups.length} group${data.trajectory_groups.length === 1 ? '' : 's'}`
    : `${data.lines.length} training example${data.lines.length === 1 ? '' : 's'}`;
  return h('div', { class: 'train-preview' },
    h('p', { class: 'train-count' }, count),
    data.skipped.length === 0 ? null : h('details', { open: true },
      h('summary', {}, `${data.skipped.length} selected call${data.skipped.length === 1 ? '' : 's'} left out`),
      h('ul', { class: 'train-skipped' }, data.skipped.map((skip) => h('li', {},
        h('a', { href: href(projectPath(entity, project, 'calls', skip.call_id)) }, h('code', {}, skip.call_id.slice(-8))), ` ${skip.reason}`)))));
}

async function startJob(model, data, kind) {
  if (kind === 'rl') {
    return api.post('/v1/preview/training-jobs', {
      model_id: model.id, trajectory_groups: data.trajectory_groups,
      // Traced answers carry no sampler logprobs; the trainer scores them itself.
      experimental_config: { allow_training_without_logprobs: true },
    });
  }
  const file = await api.upload('/v1/preview/files', data.lines.map((line) => JSON.stringify(line)).join('\n') + '\n', 'application/jsonl');
  return api.post('/v1/preview/sft-training-jobs', { model_id: model.id, training_data_url: file.url });
}

/** The panel for `callIds` (the calls selected on the page); `close` removes it. */
export function trainPanel(entity, project, callIds, close) {
  const projectId = `${entity}/${project}`;
  const field = (id, label, input) => h('div', { class: 'field' }, h('label', { for: id }, label), input);
  const kind = h('select', { id: 'train-kind' },
    h('option', { value: 'rl' }, 'Reinforcement learning (RL): learn from rewarded answers'),
    h('option', { value: 'sft' }, 'Supervised fine-tuning (SFT): imitate the answers'));
  const reward = h('select', { id: 'train-reward' },
    h('option', { value: 'reaction' }, '👍 = 1, 👎 = 0 (reactions)'),
    h('option', { value: 'feedback' }, 'A feedback type (a scorer or an annotation)…'),
    h('option', { value: '' }, 'None'));
  const feedbackType = h('input', { id: 'train-feedback-type', type: 'text', placeholder: 'e.g. wandb.runnable.my_scorer', hidden: true });
  const groupBy = h('select', { id: 'train-group-by' },
    h('option', { value: 'prompt' }, 'Answers to the same prompt'), h('option', { value: 'selection' }, 'All selected calls'));
  const minReward = h('input', { id: 'train-min-reward', type: 'number', step: 'any', placeholder: 'any' });
  const model = h('select', { id: 'train-model' }, h('option', { value: '' }, 'Loading the models…'));
  const result = h('div', { class: 'train-result', 'aria-live': 'polite' });
  const rlOnly = field('train-group-by', 'Compare', groupBy);
  const sftOnly = field('train-min-reward', 'Only calls rewarded at least', minReward);
  const sync = () => {
    feedbackType.hidden = reward.value !== 'feedback';
    rlOnly.hidden = kind.value !== 'rl';
    sftOnly.hidden = kind.value !== 'sft';
  };
  kind.addEventListener('change', sync);
  reward.addEventListener('change', sync);
  sync();

  let models = [];
  projectModels(entity, project).then((found) => {
    models = found;
    replace(model, found.length === 0 ? h('option', { value: '' }, 'No model: register one on the Training page or with ART')
      : found.map((candidate) => h('option', { value: candidate.id }, `${candidate.name} (${candidate.base_model}, step ${candidate.latest_step ?? 0})`)));
  }).catch((error) => replace(model, h('option', { value: '' }, `The models could not be loaded: ${error.message}`)));

  const choices = () => ({
    kind: kind.value, groupBy: groupBy.value, minReward: minReward.value.trim(),
    reward: reward.value === 'feedback' ? (feedbackType.value.trim() ? `feedback:${feedbackType.value.trim()}` : 'feedback:') : reward.value,
  });
  const build = async () => api.post('/calls/trajectories', trajectoriesRequest(projectId, callIds, choices()));
  const preview = async () => {
    replace(result, state('Reading the calls…'));
    try {
      replace(result, describe(await build(), entity, project));
    } catch (error) {
      replace(result, state(`The calls could not become training data: ${error.message}`, 'error'));
    }
  };
  const start = async (event) => {
    event.preventDefault();
    const chosen = models.find((candidate) => candidate.id === model.value);
    if (!chosen) {
      replace(result, state('Choose a model to train.', 'error'));
      return;
    }
    replace(result, state('Starting the job…'));
    try {
      const data = await build();
      const empty = data.trajectory_groups ? data.trajectory_groups.length === 0 : data.lines.length === 0;
      if (empty) {
        replace(result, describe(data, entity, project), state('None of the selected calls can be trained on.', 'error'));
        return;
      }
      const job = await startJob(chosen, data, kind.value);
      navigate(projectPath(entity, project, 'training', chosen.id), { job: job.id });
    } catch (error) {
      replace(result, state(`The job could not be started: ${error.message}`, 'error'));
    }
  };
  return h('section', { class: 'train-panel', 'aria-label': 'Train on the selected calls' },
    h('h2', {}, `Train on ${callIds.length} selected call${callIds.length === 1 ? '' : 's'}`),
    h('form', { class: 'train-form', onsubmit: start },
      field('train-kind', 'Training', kind),
      field('train-reward', 'Reward', h('div', {}, reward, feedbackType)),
      rlOnly, sftOnly,
      field('train-model', 'Model', model),
      h('div', { class: 'field actions' },
        h('button', { type: 'button', class: 'secondary', onclick: preview }, 'Preview'),
        h('button', { type: 'submit' }, 'Start training'),
        h('button', { type: 'button', class: 'secondary', onclick: close }, 'Close'))),
    result);
}
