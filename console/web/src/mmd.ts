// mathpix-markdown-it ships a browser build (es5/bundle.js, MathJax included) that installs
// window.markdownToHTML. It is bundled here as a hashed asset of the console and loaded on first
// use, so the 4.8 MB renderer never slows the other pages and nothing comes from outside the appliance.
import bundleUrl from 'mathpix-markdown-it/es5/bundle.js?url';

declare global {
  interface Window {
    markdownToHTML?: (mmd: string, options?: Record<string, unknown>) => string;
    loadMathJax?: () => boolean;
  }
}

let loading: Promise<void> | null = null;

function load(): Promise<void> {
  loading ??= new Promise<void>((resolve, reject) => {
    const s = document.createElement('script');
    s.src = bundleUrl;
    s.onload = () => {
      window.loadMathJax?.();
      resolve();
    };
    s.onerror = () => {
      loading = null;
      reject(new Error('the MMD renderer could not be loaded'));
    };
    document.head.append(s);
  });
  return loading;
}

/** MMD (Mathpix Markdown, maths included) to HTML, rendered in the browser. */
export async function renderMmd(mmd: string): Promise<string> {
  await load();
  return window.markdownToHTML!(mmd, { htmlTags: false, width: 800 });
}
