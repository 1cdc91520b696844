import Foundation
import KioskTestKit

/// Accessibility checks written against the DOM of the page in the browser (WCAG 2.2 AA where
/// a rule can be computed): what a screen reader announces, what a finger can hit, what a
/// person with large text or low vision can read. `run` returns one line per violation.
///
/// - every visible button, input and widget role has an accessible name; every image an
///   `alt`; every progress bar and dialog a name; the page a `lang`;
/// - every visible control is at least 44 x 44 CSS px (WCAG 2.5.5) and reachable from the
///   keyboard (a native control, no positive `tabindex`, no click handler on a non-control);
/// - nothing is wider than the window (200 % zoom of the kiosk's 1280 px is a 640 px window);
/// - text contrasts at least 4.5:1 with what lies under it (colours from computed styles,
///   backgrounds composited up the tree; decorative `aria-hidden` parts and disabled
///   controls are exempt, as WCAG has them).
enum AccessibilityAudit {
    static func run(_ browser: WebDriver) async throws -> [String] {
        let answer = try await browser.execute(script) ?? "[]"
        return try JSONDecoder().decode([String].self, from: Data(answer.utf8))
    }

    static let script = """
        const problems = [];
        const describe = (e) => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') +
          (e.dataset && e.dataset.action ? '[data-action=' + e.dataset.action + ']' : '') +
          (e.className && typeof e.className === 'string' ? '.' + e.className.trim().split(/\\s+/).join('.') : '');
        const visible = (e) => {
          if (e.closest('[hidden]')) return false;
          const style = getComputedStyle(e);
          if (style.display === 'none' || style.visibility === 'hidden') return false;
          const r = e.getBoundingClientRect();
          return r.width > 0 && r.height > 0;
        };
        const hiddenFromReaders = (e) => !!e.closest('[aria-hidden="true"]');
        const nameOf = (e) => {
          const labelledby = e.getAttribute('aria-labelledby');
          if (labelledby) {
            const text = labelledby.split(/\\s+/).map((id) => document.getElementById(id)).filter(Boolean)
              .map((l) => l.textContent.trim()).join(' ').trim();
            if (text) return text;
          }
          const label = (e.getAttribute('aria-label') || '').trim();
          if (label) return label;
          if (e.tagName === 'IMG') return (e.getAttribute('alt') || '').trim();
          return (e.innerText || e.textContent || '').trim();
        };
        if (!document.documentElement.lang) problems.push('html has no lang');

        // Names, sizes, keyboard.
        const controls = document.querySelectorAll('button, input, select, textarea, a[href], [role=button], [role=checkbox], [role=tab], [role=switch]');
        for (const e of controls) {
          if (!visible(e) || hiddenFromReaders(e)) continue;
          if (!nameOf(e)) problems.push('no accessible name: ' + describe(e));
          const r = e.getBoundingClientRect();
          if (r.width < 44 || r.height < 44) problems.push('target ' + Math.round(r.width) + 'x' + Math.round(r.height) + ' < 44x44: ' + describe(e));
          if (e.tabIndex < 0 && !e.disabled) problems.push('not reachable by keyboard: ' + describe(e));
        }
        for (const e of document.querySelectorAll('[tabindex]')) {
          if (e.tabIndex > 0) problems.push('positive tabindex breaks the focus order: ' + describe(e));
        }
        for (const e of document.querySelectorAll('[onclick]')) {
          if (!['BUTTON', 'A', 'INPUT'].includes(e.tagName)) problems.push('click handler on a non-control: ' + describe(e));
        }
        for (const e of document.querySelectorAll('img')) {
          if (!e.hasAttribute('alt')) problems.push('image without alt: ' + describe(e));
        }
        for (const e of document.querySelectorAll('[role=progressbar], [role=dialog], [role=img], svg[role]')) {
          if (!visible(e) || hiddenFromReaders(e)) continue;
          if (!nameOf(e)) problems.push('no accessible name: ' + describe(e) + ' (role ' + e.getAttribute('role') + ')');
        }

        // Nothing wider than the window.
        const width = window.innerWidth;
        if (document.documentElement.scrollWidth > width + 1) problems.push('page scrolls sideways: ' + document.documentElement.scrollWidth + ' > ' + width);
        for (const e of document.body.querySelectorAll('*')) {
          if (!visible(e) || e.closest('.viewport')) continue;
          const r = e.getBoundingClientRect();
          if (r.right > width + 1 || r.left < -1) problems.push('wider than the window (' + Math.round(r.left) + '..' + Math.round(r.right) + ' of ' + width + '): ' + describe(e));
        }

        // Contrast of text.
        const parse = (text) => {
          let m = text.match(/^rgba?\\(([^)]+)\\)$/);
          if (m) {
            const v = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
            return [v[0] / 255, v[1] / 255, v[2] / 255, v.length > 3 ? v[3] : 1];
          }
          m = text.match(/^color\\(srgb ([^)]+)\\)$/);
          if (m) {
            const v = m[1].split(/[ /]+/).filter(Boolean).map(Number);
            return [v[0], v[1], v[2], v.length > 3 ? v[3] : 1];
          }
          return null;
        };
        const over = (top, under) => [0, 1, 2].map((i) => top[i] * top[3] + under[i] * (1 - top[3])).concat([1]);
        const backgroundOf = (e) => {
          const layers = [];
          for (let n = e; n; n = n.parentElement) {
            const c = parse(getComputedStyle(n).backgroundColor);
            if (c && c[3] > 0) layers.push(c);
          }
          let colour = [1, 1, 1, 1];
          for (const layer of layers.reverse()) colour = over(layer, colour);
          return colour;
        };
        const luminance = (c) => {
          const lin = (v) => v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
          return 0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2]);
        };
        for (const e of document.body.querySelectorAll('*')) {
          const text = Array.from(e.childNodes).filter((n) => n.nodeType === 3).map((n) => n.textContent).join('').trim();
          if (!text || !visible(e) || hiddenFromReaders(e) || e.closest('button:disabled') || e.closest('.viewport')) continue;
          const style = getComputedStyle(e);
          const fg = parse(style.color);
          if (!fg) { problems.push('unreadable colour ' + style.color + ': ' + describe(e)); continue; }
          const bg = backgroundOf(e);
          const shown = over(fg, bg);
          const [a, b] = [luminance(shown), luminance(bg)].sort((x, y) => y - x);
          const ratio = (a + 0.05) / (b + 0.05);
          if (ratio < 4.5) problems.push('contrast ' + ratio.toFixed(2) + ':1 < 4.5:1 (' + style.color + ' on ' + bg.slice(0, 3).map((v) => Math.round(v * 255)).join(',') + '): ' + describe(e) + ' "' + text.slice(0, 30) + '"');
        }
        return JSON.stringify(Array.from(new Set(problems)));
        """
}
