// Rollbook's pages work without this script; with it, a post's salt comes from the browser's own
// random source, in every post form, including each form a post answers with; and the scrubber's
// slider tells a screen reader the step the sheets now show (the fragment drawn for it carries the words);
// and a time the server said in UTC to the minute is said in the reader's own zone (its title keeps the exact time).
(function () {
  function fillSalts(root) {
    for (const input of root.querySelectorAll("[data-fill-salt]")) {
      if (input.value) continue;
      const bytes = new Uint8Array(16);
      crypto.getRandomValues(bytes);
      input.value = Array.from(bytes, b => b.toString(16).padStart(2, "0")).join("");
    }
  }
  const minute = new Intl.DateTimeFormat(document.documentElement.lang || undefined, {  // the page's language
    year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", timeZoneName: "short"});
  function localTimes(root) {
    for (const time of root.querySelectorAll("time[data-local]")) {
      const when = new Date(time.getAttribute("datetime"));
      if (!isNaN(when)) time.textContent = minute.format(when);
      time.removeAttribute("data-local");
    }
  }
  document.addEventListener("DOMContentLoaded", () => { fillSalts(document); localTimes(document); });
  document.addEventListener("htmx:load", event => { fillSalts(event.target); localTimes(event.target); });
  document.addEventListener("htmx:afterSettle", () => {
    const sheets = document.getElementById("sheets"), slider = document.getElementById("step");
    if (sheets && slider && sheets.dataset.valuetext) slider.setAttribute("aria-valuetext", sheets.dataset.valuetext);
  });
})();
