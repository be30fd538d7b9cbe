// The camera's remote in a phone's browser: pairing, the live view and the HUD over one
// WebSocket, the controls as form posts, the card's index. No build step, nothing fetched
// from anywhere but the camera.
const $ = (id) => document.getElementById(id);
let socket = null;
let shownURL = null;
let lastStatus = {};

async function post(path, fields) {
  const response = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields),
  });
  let answer = {};
  try { answer = await response.json(); } catch { /* an empty answer */ }
  return { ok: response.ok, status: response.status, answer };
}

function say(text) { $("message").textContent = text || ""; }

async function control(fields) {
  const { ok, answer } = await post("/api/control", fields);
  say(ok ? "" : answer.error || "The camera did not take it");
}

function showPairing(text) {
  $("camera").hidden = true;
  $("pairing").hidden = false;
  $("pair-answer").textContent = text || "";
  $("code").focus();
}

async function pair(event) {
  event.preventDefault();
  await pairWith($("code").value);
}

async function pairWith(code) {
  const { ok, answer } = await post("/api/pair", { code });
  if (ok) return start();
  if (answer.error === "locked") return showPairing(`Too many wrong codes: try again in ${answer.seconds} s.`);
  showPairing(answer.triesLeft !== undefined ? `Wrong code: ${answer.triesLeft} tries left.` : "Wrong code.");
}

function showStatus(status) {
  // A photo or movie saved since: the index again.
  const saved = status.lastPhoto !== lastStatus.lastPhoto || (lastStatus.saving > 0 && status.saving === 0)
    || (lastStatus.recordingSeconds !== undefined && status.recordingSeconds === undefined);
  if (saved && lastStatus.ready) listItems();
  lastStatus = status;
  $("hud").replaceChildren(...(status.hud || []).map((item) => {
    const li = document.createElement("li");
    li.className = item.manual ? "manual" : "";
    li.innerHTML = "<b></b><span></span>";
    li.firstChild.textContent = item.label;
    li.lastChild.textContent = item.value;
    return li;
  }));
  $("chips").replaceChildren(...(status.chips || []).map((chip) => {
    const li = document.createElement("li");
    li.className = chip.attention ? "attention" : "";
    li.textContent = chip.text;
    return li;
  }));
  $("mode").textContent = status.mode === "pro" ? "PRO" : "AUTO";
  $("dials").classList.toggle("auto", status.mode !== "pro");
  $("format").value = status.format;
  $("ev").value = status.ev;
  $("ev-value").textContent = (status.ev / 3).toFixed(1).replace(/\.0$/, "");
  $("drive").value = status.driveMode;
  if (document.activeElement !== $("zoom")) $("zoom").value = status.zoom;
  $("zoom-value").textContent = `${Number(status.zoom).toFixed(1)}×`;
  $("auto-zoom").setAttribute("aria-pressed", status.autoZoom ? "true" : "false");
  $("record").classList.toggle("on", status.recordingSeconds !== undefined);
  $("record").textContent = status.recordingSeconds !== undefined ? `■ ${status.recordingSeconds}s` : "REC";
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  socket = new WebSocket(`${scheme}//${location.host}/live`);
  socket.binaryType = "blob";
  $("connection").hidden = false;
  $("connection").textContent = "Connecting…";
  let ping = null;
  socket.onopen = () => {
    $("connection").hidden = true;
    ping = setInterval(() => socket.readyState === WebSocket.OPEN && socket.send("ping"), 5000);
  };
  socket.onmessage = (event) => {
    if (typeof event.data === "string") return showStatus(JSON.parse(event.data));
    const url = URL.createObjectURL(event.data);
    $("live").src = url;
    if (shownURL) URL.revokeObjectURL(shownURL);
    shownURL = url;
  };
  socket.onclose = (event) => {
    clearInterval(ping);
    $("connection").hidden = false;
    $("connection").textContent = "Connection lost — reconnecting…";
    console.warn(`live view closed: ${event.code} ${event.reason}`);
    setTimeout(start, 2000);
  };
}

async function listItems() {
  const response = await fetch("/api/items");
  if (!response.ok) return;
  const { items } = await response.json();
  $("items").replaceChildren(...items.slice(0, 60).map((item) => {
    const li = document.createElement("li");
    const still = item.files.find((file) => file.kind === "jpeg") || item.files.find((file) => file.kind === "raw");
    if (still) {
      const img = document.createElement("img");
      img.loading = "lazy";
      img.alt = item.name;
      img.src = `/thumb/${item.folder}/${still.name}`;
      li.append(img);
    }
    const name = document.createElement("div");
    name.textContent = `${item.name.split("/")[1]} · ${item.format}`;
    li.append(name);
    for (const file of item.files) {
      const link = document.createElement("a");
      link.href = `/card/${item.folder}/${file.name}`;
      link.download = file.name;
      link.textContent = file.name.split(".")[1];
      li.append(link);
    }
    const remove = document.createElement("button");
    remove.textContent = "Delete";
    remove.disabled = item.protected;
    remove.onclick = async () => {
      if (!confirm(`Delete ${item.name}?`)) return;
      const answer = await fetch(`/card/${item.folder}/${item.files[0].name}`, { method: "DELETE" });
      if (answer.ok) listItems(); else say((await answer.json()).error);
    };
    li.append(remove);
    return li;
  }));
}

async function start() {
  const response = await fetch("/api/status");
  if (response.status === 401) return showPairing();
  if (!response.ok) return setTimeout(start, 2000);
  $("pairing").hidden = true;
  $("camera").hidden = false;
  showStatus(await response.json());
  connect();
  listItems();
}

function wire() {
  $("pair-form").addEventListener("submit", pair);
  const shutter = $("shutter");
  // Held: a burst, as the camera's own button.
  shutter.addEventListener("pointerdown", (event) => {
    event.preventDefault();
    shutter.classList.add("held");
    control({ action: "shutter", pressed: "1" });
  });
  for (const end of ["pointerup", "pointercancel", "pointerleave"]) {
    shutter.addEventListener(end, () => {
      if (!shutter.classList.contains("held")) return;
      shutter.classList.remove("held");
      control({ action: "shutter", pressed: "0" });
    });
  }
  $("record").onclick = () => control({ action: "record" });
  $("mode").onclick = () => control({ action: "mode", mode: lastStatus.mode === "pro" ? "auto" : "pro" });
  for (const button of document.querySelectorAll("#dials button")) {
    button.onclick = () => control({ action: "turn", dial: button.dataset.dial, steps: button.dataset.steps });
  }
  $("format").onchange = () => control({ action: "format", format: $("format").value });
  $("ev").onchange = () => control({ action: "ev", thirds: $("ev").value });
  $("drive").onchange = () => control({ action: "drive", drive: $("drive").value });
  $("zoom").onchange = () => control({ action: "zoom", factor: $("zoom").value });
  $("auto-zoom").onclick = () => control({ action: "auto-zoom", on: lastStatus.autoZoom ? "0" : "1" });
  $("live").addEventListener("click", (event) => {
    const box = event.target.getBoundingClientRect();
    control({ action: "tap", x: ((event.clientX - box.left) / box.width).toFixed(4), y: ((event.clientY - box.top) / box.height).toFixed(4) });
  });
}

// The camera's QR code carries its pairing code after the address (#code=123456): used once,
// then taken out of the address so a reload or a bookmark does not try it again.
async function pairFromAddress() {
  const code = new URLSearchParams(location.hash.slice(1)).get("code");
  if (!code) return start();
  history.replaceState(null, "", location.pathname);
  const status = await fetch("/api/status");
  if (status.ok) return start();
  await pairWith(code);
}

wire();
pairFromAddress();
