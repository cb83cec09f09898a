// "Is this a good move?": the student answers before the engine reveals its values
// (POST /api/quiz); the verdict gives the engine's value of every move as the reason.

const $ = (id) => document.getElementById(id);

let asked = null; // the request of the question on screen

export async function startQuiz(api, request, kind) {
  const box = $("quiz");
  box.hidden = false;
  $("quiz-verdict").textContent = "";
  $("quiz-verdict").className = "verdict";
  $("quiz-values").replaceChildren();
  $("quiz-moves").replaceChildren();
  $("quiz-value-form").hidden = true;
  try {
    const answer = await api("quiz", { ...request, ask: kind });
    asked = { ...request, ask: kind };
    $("quiz-question").textContent = answer.question;
    if (kind === "value") {
      $("quiz-value-form").hidden = false;
      $("quiz-number").value = "";
      $("quiz-number").focus();
    } else {
      $("quiz-moves").replaceChildren(...answer.moves.map((m) => {
        const b = document.createElement("button");
        b.type = "button";
        b.className = "chip";
        b.dataset.move = m;
        b.textContent = m;
        b.addEventListener("click", () => grade(api, m));
        return b;
      }));
    }
  } catch (err) {
    asked = null;
    $("quiz-question").textContent = `No quiz here: ${err.message}`;
  }
}

async function grade(api, text) {
  if (!asked) return;
  for (const b of $("quiz-moves").querySelectorAll("button")) b.disabled = true;
  $("quiz-verdict").textContent = "the engine is checking...";
  try {
    const { verdict } = await api("quiz", { ...asked, answer: String(text) });
    const line = $("quiz-verdict");
    line.textContent = verdict.text;
    line.className = `verdict ${verdict.right ? "right" : "wrong"}`;
    const rows = verdict.values.map((r) => {
      const tr = document.createElement("tr");
      tr.dataset.move = r.move;
      if (verdict.best.includes(r.move)) tr.className = "best";
      if (r.move === verdict.answer) tr.classList.add("picked");
      for (const text of [r.move, r.score ?? String(r.value)]) {
        const td = document.createElement("td");
        td.textContent = text;
        tr.append(td);
      }
      return tr;
    });
    $("quiz-values").replaceChildren(...rows);
  } catch (err) {
    $("quiz-verdict").textContent = `Not an answer: ${err.message}`;
    for (const b of $("quiz-moves").querySelectorAll("button")) b.disabled = false;
  }
}

export function wireQuiz(api, currentRequest) {
  $("quiz-move").addEventListener("click", () => startQuiz(api, currentRequest(), "move"));
  $("quiz-value").addEventListener("click", () => startQuiz(api, currentRequest(), "value"));
  $("quiz-value-form").addEventListener("submit", (e) => {
    e.preventDefault();
    grade(api, $("quiz-number").value);
  });
}

export function hideQuiz() {
  asked = null;
  $("quiz").hidden = true;
}
