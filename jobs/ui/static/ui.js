// interview ui: the one script. The pages work without it; it only makes reading easier.
"use strict";
document.documentElement.dataset.js = "on";

// Times are shown in UTC (<time datetime=...>), as the days of the timeline and the chart; a
// full time also gets the reader's own zone, and every time says it in its tooltip.
function localTimes() {
  const pad = (n) => String(n).padStart(2, "0");
  for (const node of document.querySelectorAll("time[datetime]")) {
    const when = new Date(node.getAttribute("datetime"));
    if (isNaN(when)) continue;
    const local = `${when.getFullYear()}-${pad(when.getMonth() + 1)}-${pad(when.getDate())} ` +
      `${pad(when.getHours())}:${pad(when.getMinutes())}`;
    node.title = `${node.title} · ${local} your time`;
    if (node.textContent.trim().length > 10 && when.getTimezoneOffset() !== 0) {
      node.textContent = `${node.textContent} UTC (${local} yours)`;
    }
    node.dataset.local = "1";
  }
}

// "/" jumps to the search box (or to the search page).
function searchKey(event) {
  if (event.key !== "/" || /^(INPUT|TEXTAREA)$/.test(document.activeElement.tagName)) return;
  event.preventDefault();
  const box = document.querySelector("input[type=search]");
  if (box) box.focus(); else window.location.assign("/search");
}

// A type chip submits its filter form at once.
function chipsSubmit() {
  for (const box of document.querySelectorAll("form.filters .chip input")) {
    box.addEventListener("change", () => box.form.requestSubmit());
  }
}

document.addEventListener("DOMContentLoaded", () => {
  localTimes();
  chipsSubmit();
  document.addEventListener("keydown", searchKey);
});
