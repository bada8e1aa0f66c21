type Json = Record<string, unknown>;

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch] ?? ch);

/** A compact, human-readable rendering of a JSON Schema (type, constraints, nested properties). */
function describeSchema(schema: Json | undefined, depth = 0): string {
  if (!schema) return '';
  const parts: string[] = [];
  const type = schema.type ?? (schema.anyOf ? 'one of' : schema.const !== undefined ? `const ${JSON.stringify(schema.const)}` : '');
  if (type) parts.push(escapeHtml(String(type)));
  if (Array.isArray(schema.enum)) parts.push(`<code>${escapeHtml(schema.enum.map(String).join(' | '))}</code>`);
  for (const key of ['minimum', 'maximum', 'minLength', 'maxLength', 'format', 'pattern']) {
    if (schema[key] !== undefined) parts.push(`${key} ${escapeHtml(String(schema[key]))}`);
  }
  if (typeof schema.description === 'string') parts.push(`— ${escapeHtml(schema.description)}`);
  let out = parts.join(' ');
  const props = schema.properties as Record<string, Json> | undefined;
  if (props && depth < 4) {
    const required = new Set((schema.required ?? []) as string[]);
    out += '<ul>' + Object.entries(props)
      .map(([name, s]) => `<li><code>${escapeHtml(name)}</code>${required.has(name) ? ' <em>required</em>' : ''}: ${describeSchema(s, depth + 1)}</li>`)
      .join('') + '</ul>';
  }
  const items = schema.items as Json | undefined;
  if (items && depth < 4) out += ` of ${describeSchema(items, depth + 1)}`;
  return out;
}

/** `/docs`: the OpenAPI document as one self-contained page (no scripts, no assets from a CDN). */
export function renderDocsPage(doc: Json): string {
  const info = doc.info as { title: string; version: string; description: string };
  const paths = doc.paths as Record<string, Record<string, Json>>;
  const byTag = new Map<string, string[]>();
  for (const [path, ops] of Object.entries(paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const tag = ((op.tags as string[] | undefined) ?? ['Other'])[0] ?? 'Other';
      const params = ((op.parameters ?? []) as Json[])
        .map((p) => `<li><code>${escapeHtml(String(p.name))}</code> (${escapeHtml(String(p.in))}${p.required ? ', required' : ''}): ${describeSchema(p.schema as Json)} ${p.description ? escapeHtml(String(p.description)) : ''}</li>`)
        .join('');
      const body = (op.requestBody as { content: Record<string, { schema: Json }> } | undefined)?.content['application/json']?.schema;
      const responses = Object.entries(op.responses as Record<string, Json>);
      const success = responses.find(([code]) => code.startsWith('2'));
      const successSchema = (success?.[1].content as Record<string, { schema: Json }> | undefined)?.['application/json']?.schema;
      const html = `<section class="op" id="${escapeHtml(String(op.operationId))}">
<h3><span class="m m-${method}">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code></h3>
<p>${escapeHtml(String(op.summary ?? ''))}</p>${op.description ? `<p>${escapeHtml(String(op.description))}</p>` : ''}
${params ? `<h4>Parameters</h4><ul>${params}</ul>` : ''}
${body ? `<h4>Body</h4>${describeSchema(body)}` : ''}
${success ? `<h4>${escapeHtml(success[0])} response</h4>${describeSchema(successSchema)}` : ''}
<p class="errs">Errors: ${responses.filter(([code]) => !code.startsWith('2')).map(([code]) => code).join(', ')}</p>
</section>`;
      byTag.set(tag, [...(byTag.get(tag) ?? []), html]);
    }
  }
  const nav = [...byTag.keys()].map((t) => `<a href="#tag-${escapeHtml(t)}">${escapeHtml(t)}</a>`).join(' · ');
  const sections = [...byTag.entries()].map(([t, ops]) => `<h2 id="tag-${escapeHtml(t)}">${escapeHtml(t)}</h2>${ops.join('\n')}`).join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(info.title)} reference</title><style>
body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:0 auto;padding:1rem;color:#1d2327}
code{font-family:ui-monospace,monospace;background:#f3f4f6;padding:0 .2em;border-radius:3px}
.op{border-top:1px solid #ddd;padding:.5rem 0}.m{display:inline-block;min-width:4.5em;font-size:.8em;padding:.1em .4em;border-radius:3px;color:#fff;background:#555;text-align:center}
.m-get{background:#0b6e4f}.m-post{background:#1d4ed8}.m-patch{background:#9a3412}.m-delete{background:#b91c1c}
.errs{color:#555;font-size:.9em}pre{white-space:pre-wrap}nav{margin:1rem 0}
</style></head><body><h1>${escapeHtml(info.title)} <small>${escapeHtml(info.version)}</small></h1>
<pre>${escapeHtml(info.description)}</pre><p>Machine-readable: <a href="/v1/openapi.json">/v1/openapi.json</a></p>
<nav>${nav}</nav>${sections}</body></html>`;
}
