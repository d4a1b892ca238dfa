/** Counts and failures of a pytest JUnit XML report, as docs/client-compat.md records them. */
export function summarise(xml: string): string {
  const cases = [...xml.matchAll(/<testcase ([^>]*?)(\/>|>([\s\S]*?)<\/testcase>)/g)];
  const attr = (s: string, name: string) => s.match(new RegExp(`(?:^|\\s)${name}="([^"]*)"`))?.[1] ?? '';
  let passed = 0;
  let skipped = 0;
  const failed: string[] = [];
  for (const [, attrs, , inner = ''] of cases) {
    const name = `${attr(attrs!, 'classname')}::${attr(attrs!, 'name')}`;
    const failure = inner.match(/<(failure|error) message="([^"]*)"/);
    if (failure)
      failed.push(
        `  ${name}: ${failure[2]!
          .replace(/&#10;|\n/g, ' ')
          .replace(/&quot;/g, '"')
          .replace(/&apos;/g, "'")
          .replace(/&lt;/g, '<')
          .replace(/&gt;/g, '>')
          .replace(/&amp;/g, '&')
          .slice(0, 240)}`,
      );
    else if (/<skipped/.test(inner)) skipped++;
    else passed++;
  }
  return [`client-compat: ${passed} passed, ${failed.length} failed, ${skipped} skipped (of ${cases.length})`, ...failed].join('\n');
}
