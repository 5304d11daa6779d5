import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import Form from '@rjsf/core';
import type { RJSFSchema } from '@rjsf/utils';
import { dataOf, errorOfResponse } from '@svc/client';
import { svc } from '../app/svc.js';
import { schemaValidator } from '../commands/schema-validator.js';
import { CONSOLE_PATHS } from '../paths.js';
import { ErrorNote } from '../ui/error-note.js';
import { useAction } from '../ui/use-action.js';
import { useLoad } from '../ui/use-load.js';

type Input = Record<string, unknown>;

/** A command: what it does, a run form generated from its `input_schema`, its examples to start from, and the result. */
export function Command() {
  const { namespace = '', name = '' } = useParams();
  const navigate = useNavigate();
  const { data: command, error } = useLoad(
    () => dataOf(svc.api.GET('/api/v1/commands/{namespace}/{name}', { params: { path: { namespace, name } } })),
    [namespace, name],
  );
  const [input, setInput] = useState<Input>({});
  const [asTask, setAsTask] = useState(false);
  const [result, setResult] = useState<{ value: unknown } | undefined>(undefined);
  const run = useAction(async (body: Input) => {
    setResult(undefined);
    const { data, error: failure, response } = await svc.api.POST('/api/v1/commands/{namespace}/{name}', {
      params: { path: { namespace, name }, query: asTask ? { async: 'true' } : {} },
      body,
    });
    if (!response.ok) throw errorOfResponse(response, failure, `POST /api/v1/commands/${namespace}/${name}`);
    const answer = (data as { data: { result?: unknown; task_id?: string } }).data;
    // Medium and long commands (and any run asked as a task) become a task, followed on its page.
    if (response.status === 202 && answer.task_id) return void navigate(`${CONSOLE_PATHS.tasks}/${answer.task_id}`);
    setResult({ value: answer.result });
  });

  if (error) return <ErrorNote error={error} />;
  if (!command) return <p role="status">Loading…</p>;
  return (
    <section>
      <p>
        <Link to={`${CONSOLE_PATHS.commands}?namespace=${encodeURIComponent(namespace)}`}>{namespace}</Link> /
      </p>
      <h1>{command.annotations.title ?? `${command.namespace}/${command.name}`}</h1>
      <p>{command.description}</p>
      <p className="muted">
        {command.pack}@{command.version} · queue {command.queue} · timeout {command.timeout} s
      </p>
      {command.examples.length > 0 && (
        <div role="group" aria-label="Examples">
          <h2>Examples</h2>
          <ul>
            {command.examples.map((example, index) => (
              <li key={index}>
                <button type="button" className="secondary" onClick={() => setInput(example.input)}>
                  Use example: {example.description || `#${index + 1}`}
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
      <h2>Run</h2>
      <Form
        schema={command.input_schema as RJSFSchema}
        validator={schemaValidator}
        formData={input}
        onChange={(event) => setInput(event.formData as Input)}
        onSubmit={(event) => void run.run(event.formData as Input)}
        showErrorList="top"
        // rjsf's own messages, in the page and read out, instead of the browser's tooltips; the
        // form shows them (a list at the top, each under its field) and focuses the first field
        // at fault, so there is nothing more to do with them (rjsf logs them to the console otherwise).
        noHtml5Validate
        focusOnFirstError
        onError={() => undefined}
        disabled={run.pending}
      >
        <label className="check">
          <input type="checkbox" checked={asTask} onChange={(event) => setAsTask(event.target.checked)} /> Run as a task
        </label>
        <button type="submit" disabled={run.pending}>
          {run.pending ? 'Running…' : 'Run'}
        </button>
      </Form>
      <ErrorNote error={run.error} />
      {result && (
        <section aria-label="Result">
          <h2>Result</h2>
          <pre data-testid="result">{JSON.stringify(result.value, null, 2)}</pre>
        </section>
      )}
    </section>
  );
}
