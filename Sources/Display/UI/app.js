// idkiosk Default UI: one page, no build step, no network beyond the station.
//
// It is an integrator of the Custom UI contract (docs/events.md, docs/integrators.md): it
// renders the station's messages and answers with commands over the WebSocket /events.
// Every text comes from /i18n/<language>.json; the theme from /config.json.
"use strict";

(() => {
  const VERSION = 3;
  // Commands the UI sends by itself wait this long, so that a replay (several frames at
  // once after a reconnect) only acts on its last message.
  const AUTO_DELAY_MS = 60;

  const params = new URLSearchParams(location.search);
  const token = params.get("token");

  const app = {
    config: { languages: ["en"], defaultLanguage: "en", preview: false, theme: null },
    translations: {},
    language: "en",
    socket: null,
    reconnectDelay: 250,
    view: null, // re-renders the current screen (after a language switch)
    station: null,
    journey: null,
    autoTimer: null,
    inactivityTimer: null,
  };

  // MARK: Texts

  function t(key, values) {
    const own = app.translations[app.language] || {};
    const english = app.translations.en || {};
    let text = own[key] ?? english[key] ?? key;
    for (const [name, value] of Object.entries(values || {})) {
      text = text.split("{" + name + "}").join(String(value));
    }
    return text;
  }

  function has(key) {
    const own = app.translations[app.language] || {};
    return key in own || key in (app.translations.en || {});
  }

  // ISO 3166-1 alpha-3 to alpha-2, for the browser's own country names (Intl.DisplayNames).
  const ALPHA2 = {
    AUT: "AT", BEL: "BE", BGR: "BG", HRV: "HR", CYP: "CY", CZE: "CZ", DNK: "DK", EST: "EE", FIN: "FI",
    FRA: "FR", DEU: "DE", GRC: "GR", HUN: "HU", IRL: "IE", ITA: "IT", LVA: "LV", LTU: "LT", LUX: "LU",
    MLT: "MT", NLD: "NL", POL: "PL", PRT: "PT", ROU: "RO", SVK: "SK", SVN: "SI", ESP: "ES", SWE: "SE",
    ISL: "IS", LIE: "LI", NOR: "NO", CHE: "CH", GBR: "GB", USA: "US", CAN: "CA", AUS: "AU", NZL: "NZ",
    UTO: "UT", TUR: "TR", UKR: "UA", SRB: "RS", BIH: "BA", ALB: "AL", MKD: "MK", MNE: "ME", MDA: "MD",
    JPN: "JP", CHN: "CN", IND: "IN", BRA: "BR", MEX: "MX", ARG: "AR", ZAF: "ZA", SGP: "SG", ISR: "IL",
  };

  function countryName(code) {
    const alpha2 = ALPHA2[code];
    if (alpha2 && typeof Intl !== "undefined" && Intl.DisplayNames) {
      try {
        return new Intl.DisplayNames([app.language], { type: "region" }).of(alpha2) || code;
      } catch (_) {
        return code;
      }
    }
    return code;
  }

  // MARK: DOM

  function h(tag, attributes, ...children) {
    const element = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes || {})) {
      if (value === undefined || value === null || value === false) continue;
      if (name === "onclick") element.addEventListener("click", value);
      else if (name === "class") element.className = value;
      else element.setAttribute(name, value === true ? "" : value);
    }
    for (const child of children.flat()) {
      if (child === undefined || child === null || child === false) continue;
      element.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return element;
  }

  function button(action, label, onclick, kind) {
    return h("button", { type: "button", class: "button " + (kind || "primary"), "data-action": action, onclick }, label);
  }

  function spinner() {
    return h("div", { class: "spinner", role: "progressbar", "aria-busy": "true", "aria-label": t("app.busy") });
  }

  const screen = () => document.getElementById("screen");

  // Shows a screen; `build` returns its content and runs again after a language switch.
  function show(name, build) {
    app.resultView = null;
    app.view = () => {
      const main = screen();
      main.dataset.screen = name;
      delete main.dataset.key;
      main.replaceChildren(...[build()].flat());
      updateChrome();
    };
    app.view();
  }

  function updateChrome() {
    document.documentElement.lang = app.language;
    document.title = t("app.title");
    const cancel = document.getElementById("cancel");
    const inJourney = app.journey && !app.journey.ended;
    cancel.hidden = !inJourney;
    cancel.textContent = t("app.cancel");
    const contrast = document.getElementById("contrast");
    if (contrast) {
      contrast.textContent = t("app.contrast");
      contrast.setAttribute("aria-pressed", document.documentElement.dataset.contrast === "high" ? "true" : "false");
    }
    document.getElementById("languages").setAttribute("aria-label", t("app.languages"));
    for (const choice of document.querySelectorAll("#languages button")) {
      choice.classList.toggle("selected", choice.dataset.language === app.language);
    }
    const modal = document.getElementById("modal");
    if (modal.dataset.kind && app.modalView) app.modalView();
  }

  // MARK: Modal (inactivity warning, cancel confirmation, help)

  function openModal(kind, build) {
    const modal = document.getElementById("modal");
    modal.dataset.kind = kind;
    app.modalView = () => modal.querySelector(".dialog").replaceChildren(...[build()].flat());
    app.modalView();
    modal.hidden = false;
    // Keyboard and screen reader users land in the dialog.
    const first = modal.querySelector(".dialog button");
    if (first) first.focus({ preventScroll: true });
  }

  function closeModal(kind) {
    const modal = document.getElementById("modal");
    if (kind && modal.dataset.kind !== kind) return;
    modal.hidden = true;
    delete modal.dataset.kind;
    app.modalView = null;
    if (kind === "inactivity" || !kind) clearInterval(app.inactivityTimer);
  }

  // MARK: Connection

  function connect() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const query = token ? "?token=" + encodeURIComponent(token) : "";
    const socket = new WebSocket(scheme + "//" + location.host + "/events" + query);
    app.socket = socket;
    socket.onopen = () => { app.reconnectDelay = 250; };
    socket.onmessage = (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch (_) {
        return;
      }
      if (message.version !== VERSION) {
        show("versionMismatch", () => h("section", { class: "centered" }, h("h1", {}, t("app.versionMismatch"))));
        return;
      }
      receive(message);
    };
    socket.onclose = () => {
      if (app.socket !== socket) return;
      app.socket = null;
      show("connecting", () => h("section", { class: "centered" }, spinner(), h("p", { class: "lead" }, t("app.connecting"))));
      setTimeout(connect, app.reconnectDelay);
      app.reconnectDelay = Math.min(app.reconnectDelay * 2, 5000);
    };
  }

  function send(type, payload) {
    if (!app.socket || app.socket.readyState !== WebSocket.OPEN) return;
    app.socket.send(JSON.stringify(Object.assign({ version: VERSION, type }, payload || {})));
    // Any command tells the station the person is here.
    closeModal("inactivity");
  }

  // A command the UI sends on its own (not a person's touch): waits for the end of a replay.
  function auto(type, payload) {
    later(() => send(type, payload));
  }

  function later(action) {
    clearTimeout(app.autoTimer);
    app.autoTimer = setTimeout(action, AUTO_DELAY_MS);
  }

  // MARK: Messages

  function receive(message) {
    // A newer screen supersedes a command the UI meant to send for an older one (replay).
    // Answers and notices do not: a late logicalError must not swallow the next command.
    if (!["logicalError", "commandRefused", "inactivityWarning", "update"].includes(message.type)) {
      clearTimeout(app.autoTimer);
    }
    switch (message.type) {
      case "station": return onStation(message.screen);
      case "initialized": return onInitialized(message);
      case "credentialStarted": return onCredentialStarted(message);
      case "credentialConfigured": return onCredentialConfigured(message);
      case "configurationNotSupported": return onNotSupported(message);
      case "credentialFinished": return onCredentialFinished(message);
      case "step": return onStep(message.step);
      case "update": return onUpdate(message.update);
      case "digitalHandoff": return onHandoff(message.handoff);
      case "inactivityWarning": return onInactivity(message.remainingMilliseconds);
      case "offerFallback": return onOfferFallback(message);
      case "askStaff": return onAskStaff(message);
      case "finalizing": return onFinalizing();
      case "error": return onError(message.error);
      case "logicalError":
        // Nothing changed: a command from a stale screen, or the UI's next command sent
        // before an add-on part (the chip) started. The screen stays as it is.
        console.debug("logical error", message.logicalError);
        return;
      case "finished": return onFinished(message.result);
      case "commandRefused":
        console.warn("command refused", message.reason, message.message);
        return;
      default:
        console.debug("unknown message", message.type);
    }
  }

  // MARK: Station screens

  function onStation(stationScreen) {
    // Notices within the journey's chip read, and the backend's decision after it: they
    // neither end the journey nor replace the station's screen between journeys.
    if (stationScreen.name === "documentLifted" || stationScreen.name === "documentReturned") {
      return onDocumentNotice(stationScreen.name === "documentLifted");
    }
    if (stationScreen.name === "decision") return onDecision(stationScreen);
    app.station = stationScreen;
    app.journey = null;
    app.lastResult = null;
    closeModal();
    app.language = app.config.defaultLanguage;
    if (stationScreen.name === "idle") resetContrast();
    switch (stationScreen.name) {
      case "idle": {
        if (stationScreen.startBy.includes("reference")) {
          // An Authentication station: the person's enrollment reference, typed on the keypad
          // or by a scanner that types (a keyboard to the browser), starts the journey.
          app.reference = "";
          show("idle", referenceView);
          return;
        }
        const card = stationScreen.startBy.includes("card");
        const touch = stationScreen.startBy.includes("touch");
        const text = card && touch ? "idle.cardOrTouch" : card ? "idle.card" : "idle.touch";
        show("idle", () => h("section", { class: "centered idle" + (touch ? " touchable" : ""), onclick: touch ? () => send("startJourney") : null },
          h("h1", {}, t("idle.title")),
          h("div", { class: card ? "reader-illustration" : "touch-illustration", "aria-hidden": "true" }),
          h("p", { class: "lead" }, t(text)),
          touch ? button("startJourney", t("idle.start"), (event) => { event.stopPropagation(); send("startJourney"); }) : null));
        return;
      }
      case "outOfService": {
        const missing = (stationScreen.devices || []).filter((device) => !device.available);
        show("outOfService", () => h("section", { class: "centered" },
          h("div", { class: "icon warning", "aria-hidden": "true" }, "!"),
          h("h1", {}, t("outOfService.title")),
          h("p", { class: "lead" }, t("outOfService.text")),
          missing.length ? h("p", {}, t("outOfService.missing")) : null,
          h("ul", { class: "devices" }, missing.map((device) => h("li", { "data-device": device.device },
            h("strong", {}, t("device." + device.device)),
            device.detail ? h("span", { class: "detail" }, " — " + device.detail) : null)))));
        return;
      }
      case "starting":
        show("starting", () => h("section", { class: "centered" }, spinner(), h("h1", {}, t("starting.title")), h("p", { class: "lead" }, t("starting.text"))));
        return;
    }
  }

  const REFERENCE_KEYS = "1234567890qwertyuiopasdfghjklzxcvbnm-".split("");

  function referenceType(key) {
    if (app.reference === undefined || app.reference === null) return;
    if (key === "back") app.reference = app.reference.slice(0, -1);
    else if (/^[0-9A-Za-z_.:-]$/.test(key) && app.reference.length < 100) app.reference += key;
    app.view();
  }

  function startWithReference() {
    const reference = (app.reference || "").trim();
    if (!reference) return;
    // Forget it at once: the station has it now.
    app.reference = "";
    send("startJourney", { enrollmentTransactionReference: reference });
  }

  function referenceView() {
    const value = app.reference || "";
    return h("section", { class: "centered idle chip-key reference" },
      h("h1", {}, t("idle.title")),
      h("p", { class: "lead" }, t("idle.reference")),
      h("div", { class: "key-fields" },
        h("div", { class: "key-field active", "data-field": "reference" },
          h("span", { class: "label" }, t("idle.referenceLabel")),
          h("span", { class: "value", id: "reference-value" }, value || "\u2007"))),
      h("div", { class: "keypad letters" },
        REFERENCE_KEYS.map((key) => h("button", { type: "button", class: "key", "data-key": key, onclick: () => referenceType(key) }, key)),
        h("button", { type: "button", class: "key back", "data-key": "back", "aria-label": t("chipKey.back"), onclick: () => referenceType("back") }, "\u232B")),
      h("div", { class: "actions" },
        h("button", {
          type: "button", class: "button primary", "data-action": "startJourney", disabled: value.trim() ? false : true,
          onclick: startWithReference,
        }, t("idle.start"))));
  }

  document.addEventListener("keydown", (event) => {
    if (screen().dataset.screen !== "idle" || app.reference === undefined || app.reference === null) return;
    if (!app.station || app.station.name !== "idle" || !app.station.startBy.includes("reference")) return;
    if (event.key === "Enter") startWithReference();
    else if (event.key === "Backspace") referenceType("back");
    else if (event.key.length === 1) referenceType(event.key);
    else return;
    event.preventDefault();
  });

  // The document left the reader mid-read: ask for it back; the read resumes by itself.
  function onDocumentNotice(lifted) {
    if (!app.journey) return;
    app.journey.lifted = lifted;
    const percent = app.journey.chip ? app.journey.chip.percent : null;
    show("nfc", () => chipView(lifted ? "nfc.putBack" : "nfc.keep", lifted ? null : percent));
    screen().dataset.lifted = lifted ? "true" : "false";
  }

  // The backend's decision (or, while it is pending, the reference) on the result screen.
  function onDecision(decision) {
    if (screen().dataset.screen !== "result") {
      // A display that connected after the journey: the decision is the whole screen.
      show("result", () => h("section", { class: "centered result" }, h("h1", {}, t("decision.title"))));
    }
    const place = () => {
      // After Fastfill (extraction only) nothing is decided: the reference is for staff.
      const extracted = !decision.decision && app.lastResult && app.lastResult.verification === false;
      const known = decision.decision ? "decision." + decision.decision : extracted ? "decision.extracted" : "decision.pending";
      const box = h("div", { class: "decision", id: "decision", "data-decision": decision.decision || (extracted ? "extracted" : "pending") },
        h("p", { class: "lead" }, t(has(known) ? known : "decision.pending")),
        h("p", { class: "code", id: "reference" }, t("decision.reference", { reference: decision.reference })));
      const old = document.getElementById("decision");
      if (old) old.replaceWith(box); else screen().querySelector("section").appendChild(box);
    };
    place();
    // A language switch redraws the result screen: the decision is drawn again with it.
    const view = app.resultView || app.view;
    app.resultView = view;
    app.view = () => { view(); place(); };
  }

  // MARK: Journey

  function onInitialized(message) {
    closeModal();
    app.station = null;
    app.language = app.config.defaultLanguage;
    app.journey = {
      credentials: message.credentials,
      consentItems: message.consentItems || [],
      finishedCredentials: new Set(),
      credential: null, // {id, info, parts, finished:Set, configured}
      part: null,
      mode: null,
      ended: false,
      consented: false,
      fallback: null,
      askStaff: false,
    };
    const active = app.journey.consentItems.filter((item) => item.type === "active");
    if (app.journey.consentItems.length > 0) {
      showConsent(active);
    } else {
      app.journey.consented = true;
      startNextCredential();
    }
  }

  // Seeds: a passive item is shown (going on accepts it); each active item needs the
  // person's own tap (a switch per item), and going on waits until every one is ticked.
  function showConsent(active) {
    const journey = app.journey;
    journey.ticked = new Set();
    const tick = (item) => {
      if (journey.ticked.has(item.id)) journey.ticked.delete(item.id); else journey.ticked.add(item.id);
      app.view();
    };
    show("consent", () => h("section", { class: "consent" },
      h("h1", {}, t("consent.title")),
      active.length ? h("p", {}, t("consent.intro")) : null,
      h("div", { class: "consent-items" }, journey.consentItems.map((item) => h("article", { class: "consent-item " + item.type, "data-item": item.id },
        item.type === "passive" ? h("p", { class: "notice" }, t("consent.notice")) : null,
        item.type === "passive" ? h("p", { class: "consent-text", id: "consent-" + item.id }, item.text) : h("button", {
          type: "button", role: "checkbox", class: "consent-tick", "data-tick": item.id, id: "consent-" + item.id,
          "aria-checked": journey.ticked.has(item.id) ? "true" : "false", onclick: () => tick(item),
        }, h("span", { class: "box", "aria-hidden": "true" }, journey.ticked.has(item.id) ? "✓" : ""), h("span", { class: "consent-text" }, item.text)),
        item.url ? h("p", { class: "consent-link" }, t("consent.terms") + " ", h("span", { class: "url" }, item.url)) : null))),
      active.length && journey.ticked.size < active.length ? h("p", { class: "hint", id: "consent-hint" }, t("consent.tickEach")) : null,
      h("div", { class: "actions" },
        active.length ? button("refuse", t("consent.refuse"), () => {
          send("userConsented", { itemId: active[0].id, decision: false });
        }, "secondary") : null,
        h("button", {
          type: "button", class: "button primary", "data-action": "accept",
          disabled: active.every((item) => journey.ticked.has(item.id)) ? false : true,
          onclick: () => {
            if (!active.every((item) => journey.ticked.has(item.id))) return;
            for (const item of active) send("userConsented", { itemId: item.id, decision: true });
            journey.consented = true;
            startNextCredential(true);
          },
        }, t(active.length ? "consent.accept" : "consent.continue")))));
  }

  function startNextCredential(now) {
    const journey = app.journey;
    const next = journey.credentials.find((credential) => !journey.finishedCredentials.has(credential.id));
    if (next) {
      if (now) send("startCredential", { id: next.id });
      else auto("startCredential", { id: next.id });
      show("starting", () => h("section", { class: "centered" }, spinner()));
    } else {
      if (now) send("finish");
      else auto("finish");
    }
  }

  function onCredentialStarted(message) {
    const journey = app.journey;
    if (!journey) return;
    journey.consented = true;
    const info = journey.credentials.find((credential) => credential.id === message.id);
    journey.credential = { id: message.id, info, parts: message.parts, finished: new Set(), configured: message.isConfigured };
    if (message.isConfigured) {
      startNextPart();
    } else {
      showSelection(info);
    }
  }

  function onCredentialConfigured(message) {
    const credential = app.journey && app.journey.credential;
    if (!credential) return;
    credential.parts = message.parts;
    credential.configured = true;
    startNextPart();
  }

  function onNotSupported() {
    const credential = app.journey && app.journey.credential;
    if (!credential) return;
    credential.notSupported = true;
    showSelection(credential.info);
  }

  function onCredentialFinished(message) {
    const journey = app.journey;
    if (!journey) return;
    journey.finishedCredentials.add(message.id);
    journey.credential = null;
    startNextCredential();
  }

  // MARK: Selection (country, document, acquire mode)

  function showSelection(info) {
    const credential = app.journey.credential;
    if (info.category === "document") {
      // A kiosk has no files of the person's to attach: it takes paper with its camera only.
      const modes = (info.acquireModes.length ? info.acquireModes : ["camera"]).filter((mode) => mode !== "file");
      if (!modes.length) {
        show("fileNotPossible", () => h("section", { class: "centered" },
          h("h1", {}, t("document.fileNotPossibleTitle")),
          h("p", { class: "lead" }, t("document.fileNotPossible"))));
        return;
      }
      if (modes.length === 1) {
        auto("setAcquireMode", { acquireMode: modes[0] });
        return;
      }
      show("selectAcquireMode", () => h("section", {},
        h("h1", {}, t("select.acquireTitle")),
        h("div", { class: "choices" }, modes.map((mode) => button("acquire-" + mode, t("select.acquire." + mode), () => send("setAcquireMode", { acquireMode: mode }), "choice")))));
      return;
    }
    const countries = Array.from(new Set([...Object.keys(info.countries || {}), ...Object.keys(info.digitalDocuments || {})]))
      .sort((a, b) => countryName(a).localeCompare(countryName(b), app.language));
    if (countries.length === 1) {
      showDocuments(info, countries[0], false);
      return;
    }
    show("selectCountry", () => h("section", {},
      h("h1", {}, t("select.countryTitle")),
      credential.notSupported ? h("p", { class: "notice negative" }, t("select.notSupported")) : null,
      h("div", { class: "choices countries" }, countries.map((code) =>
        button("country-" + code, countryName(code), () => showDocuments(info, code, true), "choice")))));
  }

  function showDocuments(info, country, canGoBack) {
    const credential = app.journey.credential;
    const documents = (info.countries || {})[country] || [];
    const digital = (info.digitalDocuments || {})[country] || [];
    const types = documents.map((document) => document.type);
    show("selectDocument", () => h("section", {},
      h("h1", {}, t("select.documentTitle")),
      h("p", { class: "subtitle" }, countryName(country)),
      credential.notSupported ? h("p", { class: "notice negative" }, t("select.notSupported")) : null,
      h("div", { class: "choices documents" },
        documents.map((document) => {
          const twoVariants = types.filter((type) => type === document.type).length > 1;
          const label = t("document." + document.type) + (twoVariants ? " (" + t("variant." + document.variant) + ")" : "");
          return button("document-" + document.type + "-" + document.variant, label, () => {
            credential.notSupported = false;
            send("setConfiguration", { country, document: { type: document.type, variant: document.variant } });
          }, "choice");
        }),
        digital.map((document) => button("digital-" + document.id, document.title, () => {
          credential.notSupported = false;
          send("setDigitalConfiguration", { country, digitalDocument: { id: document.id, title: document.title } });
        }, "choice"))),
      canGoBack ? h("div", { class: "actions" }, button("back", t("select.back"), () => showSelection(info), "secondary")) : null));
  }

  // MARK: Parts

  function startNextPart() {
    const credential = app.journey.credential;
    const next = credential.parts.find((part) => !credential.finished.has(part));
    if (next) {
      auto("startScanPart", { part: next });
    } else {
      auto("finishCredential");
    }
  }

  function onStep(step) {
    const journey = app.journey;
    if (!journey) return;
    switch (step.name) {
      case "prepare":
        if (step.part !== journey.part) journey.switchedToFallback = false;
        journey.part = step.part;
        journey.side = null;
        journey.fallback = null;
        journey.askStaff = false;
        journey.update = {};
        show("prepare", () => h("section", { class: "centered" }, spinner(),
          h("p", { class: "lead" }, t(step.part === "nfc" ? "prepare.nfc" : step.part === "digital" ? "prepare.digital" : "prepare.camera"))));
        return;
      case "started":
      case "scanView":
        journey.part = step.part;
        journey.mode = step.mode;
        // A new attempt starts without the last attempt's prompts.
        if (step.name === "started") journey.update = {};
        journey.update = journey.update || {};
        if (step.mode === "nfc") return showChip();
        if (step.mode === "web") return; // digitalHandoff shows the hand-off
        return showScan();
      case "nextPart":
        journey.side = step.part;
        journey.update = { nextPart: true };
        return showScan();
      case "imageTaken":
        closeModal("help");
        show("imageTaken", () => h("section", { class: "centered" }, h("div", { class: "icon positive", "aria-hidden": "true" }, "✓"), h("h1", {}, t("imageTaken.title"))));
        return;
      case "processing":
        closeModal("help");
        show("processing", () => h("section", { class: "centered" }, spinner(), h("h1", {}, t("processing.title"))));
        return;
      case "confirmationView":
        show("confirmation", () => h("section", { class: "centered" },
          h("h1", {}, t("confirm.title")),
          h("p", { class: "lead" }, t("confirm.text")),
          h("div", { class: "actions" },
            button("retake", t("confirm.retake"), () => send("retake"), "secondary"),
            button("confirm", t("confirm.yes"), () => send("confirm")))));
        return;
      case "rejectView":
        journey.lastFailure = { kind: "reject", reasons: step.reasons };
        return showFailure();
      case "retry":
        journey.lastFailure = { kind: "retry", part: step.part, code: step.code, message: step.message };
        return showFailure();
      case "canFinish":
        return onCanFinish(step.part);
      case "addonScanPart":
        journey.part = step.part;
        journey.addon = true;
        show("nfc", () => chipView("nfc.addon", null));
        return;
      case "chipKeyView":
        journey.part = step.part;
        return showChipKey(step.reason);
      case "digitalIdentityView":
        return showHandoff(false);
      case "thirdPartyVerification":
        return showHandoff(true);
    }
  }

  function onCanFinish(part) {
    const journey = app.journey;
    const credential = journey.credential;
    if (part === "nfc") {
      journey.addon = false;
    } else if (credential) {
      credential.finished.add(part);
    }
    // The next command goes with it: when the chip add-on starts instead, the station
    // answers it with a logical error (nothing changes) and the add-on's steps follow.
    later(() => {
      send("finishScanPart");
      if (!credential) return;
      const next = credential.parts.find((candidate) => !credential.finished.has(candidate));
      if (next) send("startScanPart", { part: next });
      else send("finishCredential");
    });
  }

  // MARK: Scan screen

  function scanInstruction() {
    const journey = app.journey;
    const part = journey.side || journey.part;
    const configuration = journey.credential && journey.credential.info;
    if (part === "front" && configuration) {
      const countries = Object.values(configuration.countries || {}).flat();
      if (countries.length && countries.every((document) => document.type === "identityCard") && has("scan.front.identityCard")) {
        return t("scan.front.identityCard");
      }
    }
    return t("scan." + part);
  }

  function promptText(state) {
    if (!state) return "";
    if (state.state === "tiltFace") return t("extraction.tiltFace." + state.direction);
    return t("extraction." + state.state);
  }

  // The scan screen is built once per part and mode; updates change its texts in place,
  // so the preview (an MJPEG stream in an <img>) keeps running.
  function showScan() {
    const journey = app.journey;
    const main = screen();
    if (main.dataset.screen === "scan" && main.dataset.key === journey.part + "/" + journey.mode) {
      refreshScan();
      return;
    }
    const face = journey.part === "face";
    const manual = journey.mode === "manual" || journey.mode === "faceManual";
    // A paper document is taken page by page: the count, and "that was the last page".
    const pages = journey.part === "document" && journey.mode !== "file";
    show("scan", () => h("section", { class: "scan" + (face ? " face" : " document") + (pages ? " pages" : ""), "data-part": journey.part, "data-mode": journey.mode },
      h("h1", { class: "instruction", id: "instruction" }),
      h("p", { class: "legal", id: "legal", hidden: true }),
      h("div", { class: "scan-body" },
        h("div", { class: "viewport" },
          app.config.preview
            ? h("img", { id: "preview", src: "/preview.mjpeg" + (token ? "?token=" + encodeURIComponent(token) : ""), alt: t("scan.previewAlt") })
            : h("div", { class: "no-preview" }, t("scan.noPreview")),
          h("div", { class: "guide " + (face ? "oval" : "card"), "aria-hidden": "true" }),
          h("div", { class: "flash-notice", id: "flash", hidden: true }, t("flash.on"))),
        h("div", { class: "side" },
          h("p", { class: "prompt", id: "prompt", "aria-live": "polite" }),
          pages ? h("p", { class: "page-count", id: "page-count", "aria-live": "polite" }) : null,
          h("div", { id: "tilt-slot" }),
          h("div", { id: "notices" }),
          h("div", { class: "actions" },
            manual ? button("takeImage", t("scan.takeImage"), () => send("takeImage")) : null,
            pages ? button("lastPage", t("scan.document.lastPage"), () => send("lastPage")) : null,
            button("help", t("scan.help"), openHelp, "secondary"))))));
    const key = journey.part + "/" + journey.mode;
    const rebuild = app.view;
    app.view = () => {
      rebuild();
      screen().dataset.key = key;
      refreshScan();
    };
    screen().dataset.key = key;
    refreshScan();
  }

  function refreshScan() {
    const journey = app.journey;
    const update = journey.update || {};
    const state = update.extractionState;
    const pages = update.pages;
    document.getElementById("instruction").textContent = pages
      ? t("scan.document.next", { page: pages.taken + 1 }) : scanInstruction();
    const count = document.getElementById("page-count");
    if (count) count.textContent = t("scan.document.count", { taken: pages ? pages.taken : 0, maximum: pages ? pages.maximum : "–" });
    const lastPage = document.querySelector("button[data-action='lastPage']");
    // Only once a page was taken: before that there is nothing to end.
    if (lastPage) lastPage.hidden = !pages;
    const legal = document.getElementById("legal");
    legal.hidden = !update.legalHint;
    legal.textContent = update.legalHint || "";
    document.getElementById("flash").hidden = !update.flash;
    const prompt = document.getElementById("prompt");
    prompt.textContent = update.nextPart ? t("scan.nextPart")
      : update.nextPosition ? (pages ? t("scan.document.taken", { page: pages.taken }) : t("scan.nextPosition"))
      : promptText(state);
    prompt.dataset.state = state ? state.state : "";
    // The side the person is asked to show next (a card's back after `nextPart`).
    prompt.dataset.side = update.nextPart && journey.side ? journey.side : "";
    const tilt = state && state.state === "tilt" ? state : null;
    document.getElementById("tilt-slot").replaceChildren(...(tilt ? [tiltGauge(tilt.current, tilt.target)] : []));
    document.getElementById("notices").replaceChildren(...[
      journey.switchedToFallback && (journey.mode === "manual" || journey.mode === "faceManual")
        ? h("p", { class: "notice" }, t("scan.fallbackNotice")) : null,
      update.cameraUnavailable ? h("p", { class: "notice negative" }, t("scan.cameraUnavailable")) : null,
    ].filter(Boolean));
  }

  // A half-circle gauge: the needle at the current angle, a mark at the target (±45°).
  function tiltGauge(current, target) {
    const clamp = (value) => Math.max(-45, Math.min(45, value));
    const svg = `<svg viewBox="-60 -60 120 70" width="240" height="140" aria-hidden="true">
      <path d="M -50 0 A 50 50 0 0 1 50 0" class="track" fill="none" stroke-width="8"/>
      <line x1="0" y1="0" x2="0" y2="-50" class="target" stroke-width="4" transform="rotate(${clamp(target)})"/>
      <line x1="0" y1="0" x2="0" y2="-46" class="needle" stroke-width="5" stroke-linecap="round" transform="rotate(${clamp(current)})"/>
      <circle r="5" class="hub"/></svg>`;
    const gauge = h("div", { class: "tilt", id: "tilt", "data-current": current, "data-target": target });
    gauge.innerHTML = svg;
    gauge.append(h("p", {}, t("extraction.tiltValues", { current, target })));
    return gauge;
  }

  // Modes with a simpler one to fall back to (seeds: isFallbackAvailable -> a button).
  const FALLBACK = { docFinder: "manual", barcode: "manual", faceLiveness: "faceManual" };

  // Help pauses detection and counts as a try at the station: after the configured tries
  // it offers the fallback (`offerFallback`) or asks for staff (`askStaff`).
  function openHelp() {
    const journey = app.journey;
    const face = journey && journey.part === "face";
    send("pauseScan");
    openModal("help", () => [
      h("h2", { id: "modal-title" }, t("scan.helpTitle")),
      h("p", {}, t(face ? "scan.helpFace" : "scan.helpText")),
      h("div", { class: "actions" },
        journey && FALLBACK[journey.mode]
          ? button("switchToFallback", t("fallback.switch"), () => { closeModal("help"); send("switchToFallback"); }, "secondary") : null,
        button("continue", t("scan.continue"), () => { closeModal("help"); send("retryScan"); })),
    ]);
  }

  // The reader waits for the document: help, and going on without the chip.
  function openChipHelp() {
    openModal("help", () => [
      h("h2", { id: "modal-title" }, t("nfc.helpTitle")),
      h("p", {}, t("nfc.helpText")),
      h("div", { class: "actions" },
        button("switchToFallback", t("nfc.skip"), () => { closeModal("help"); send("switchToFallback"); }, "secondary"),
        button("continue", t("scan.continue"), () => closeModal("help"))),
    ]);
  }

  function onUpdate(update) {
    const journey = app.journey;
    if (!journey) return;
    journey.update = journey.update || {};
    switch (update.name) {
      case "extractionState":
        journey.update.extractionState = update;
        journey.update.nextPosition = false;
        journey.update.nextPart = false;
        break;
      case "flash":
        journey.update.flash = update.state === "on";
        break;
      case "nextPosition":
        journey.update.nextPosition = true;
        // A paper document's pages: how many are taken, and the most the part takes.
        if (typeof update.taken === "number") journey.update.pages = { taken: update.taken, maximum: update.maximum };
        break;
      case "cameraAvailable":
        journey.update.cameraUnavailable = !update.available;
        break;
      case "legalHint":
        journey.update.legalHint = update.text;
        break;
      case "fallback":
        journey.switchedToFallback = true;
        journey.fallback = null;
        break;
      case "nfcExtractionStarted":
        journey.chip = { percent: 0, done: false };
        show("nfc", () => chipView("nfc.keep", journey.chip.percent));
        return;
      case "nfcExtractionProgress":
        journey.chip = { percent: update.percent, done: false };
        return updateChip(update.percent);
      case "nfcExtractionFinished":
        journey.chip = { percent: 100, done: true };
        show("nfc", () => chipView("nfc.done", 100, true));
        return;
    }
    if (screen().dataset.screen === "scan") refreshScan();
  }

  // MARK: Chip

  function showChip() {
    show("nfc", () => chipView(app.journey.addon ? "nfc.addon" : "nfc.place", null));
  }

  function chipView(textKey, percent, done) {
    return h("section", { class: "centered nfc" + (done ? " done" : "") },
      h("h1", {}, t("nfc.title")),
      h("div", { class: "reader-illustration", "aria-hidden": "true" }),
      h("p", { class: "lead", id: "nfc-text" }, t(textKey)),
      percent === null ? null : h("div", { class: "progress", role: "progressbar", "aria-label": t("nfc.title"), "aria-valuemin": "0", "aria-valuemax": "100", "aria-valuenow": String(percent) },
        h("div", { class: "bar", style: "width: " + percent + "%" })),
      percent === null ? null : h("p", { class: "percent", id: "nfc-percent" }, percent + " %"),
      percent === null && app.journey && app.journey.fallback ? fallbackBox() : null,
      percent === null && app.journey && !done ? h("div", { class: "actions" }, button("help", t("scan.help"), openChipHelp, "secondary")) : null);
  }

  function updateChip(percent) {
    const progress = document.querySelector("#screen .progress");
    if (screen().dataset.screen !== "nfc" || !progress) {
      show("nfc", () => chipView("nfc.keep", app.journey.chip.percent));
      return;
    }
    progress.setAttribute("aria-valuenow", String(percent));
    progress.querySelector(".bar").style.width = percent + "%";
    document.getElementById("nfc-percent").textContent = percent + " %";
  }

  // MARK: Chip key: the person types the CAN, or the document number and dates
  //
  // On-screen keys (a kiosk has no keyboard); a keyboard, where there is one, types too.
  // What was typed is personal data: it is sent once and forgotten (never stored).

  const CHIP_KEY_FIELDS = {
    can: { length: 6, digitsOnly: true },
    documentNumber: { length: 22, digitsOnly: false },
    birth: { length: 8, digitsOnly: true }, // DDMMYYYY
    expiry: { length: 8, digitsOnly: true },
  };

  function defaultChipKeyKind() {
    const configuration = app.journey.credential && app.journey.credential.info;
    const documents = configuration ? Object.values(configuration.countries || {}).flat() : [];
    return documents.length && documents.every((document) => document.type === "identityCard") ? "can" : "mrz";
  }

  function showChipKey(reason) {
    const journey = app.journey;
    const kind = (journey.chipKey && journey.chipKey.kind) || defaultChipKeyKind();
    journey.chipKey = { kind, reason, values: { can: "", documentNumber: "", birth: "", expiry: "" }, field: kind === "can" ? "can" : "documentNumber" };
    show("chipKey", chipKeyView);
  }

  // DDMMYYYY to the MRZ's YYMMDD; null unless it is a date.
  function mrzDate(digits) {
    if (!/^[0-9]{8}$/.test(digits)) return null;
    const day = Number(digits.slice(0, 2)), month = Number(digits.slice(2, 4));
    if (day < 1 || day > 31 || month < 1 || month > 12) return null;
    return digits.slice(6, 8) + digits.slice(2, 4) + digits.slice(0, 2);
  }

  function chipKeyPayload() {
    const form = app.journey.chipKey;
    const values = form.values;
    if (form.kind === "can") return /^[0-9]{6}$/.test(values.can) ? { can: values.can } : null;
    const birth = mrzDate(values.birth), expiry = mrzDate(values.expiry);
    if (!/^[A-Z0-9]{1,22}$/.test(values.documentNumber) || !birth || !expiry) return null;
    return { documentNumber: values.documentNumber, dateOfBirth: birth, dateOfExpiry: expiry };
  }

  function shownValue(field, value) {
    if (field === "birth" || field === "expiry") {
      const mask = "DDMMYYYY".split("");
      const digits = (value + mask.slice(value.length).join("")).split("");
      return digits.slice(0, 2).join("") + "." + digits.slice(2, 4).join("") + "." + digits.slice(4).join("");
    }
    return value || "\u2007";
  }

  function chipKeyType(key) {
    const form = app.journey && app.journey.chipKey;
    if (!form) return;
    const field = form.field;
    const value = form.values[field];
    if (key === "back") form.values[field] = value.slice(0, -1);
    else if (/^[0-9A-Z]$/.test(key) && value.length < CHIP_KEY_FIELDS[field].length && (!CHIP_KEY_FIELDS[field].digitsOnly || /[0-9]/.test(key))) {
      form.values[field] = value + key;
      // A full field moves on to the next one.
      const order = form.kind === "can" ? ["can"] : ["documentNumber", "birth", "expiry"];
      const next = order[order.indexOf(field) + 1];
      if (form.values[field].length === CHIP_KEY_FIELDS[field].length && next && field !== "documentNumber") form.field = next;
    }
    app.view();
  }

  function chipKeyView() {
    const form = app.journey.chipKey;
    const fieldButton = (field, label) => h("button", {
      type: "button", class: "key-field" + (form.field === field ? " active" : ""), "data-field": field,
      "aria-pressed": form.field === field ? "true" : "false", onclick: () => { form.field = field; app.view(); },
    }, h("span", { class: "label" }, label), h("span", { class: "value" }, shownValue(field, form.values[field])));
    const keys = CHIP_KEY_FIELDS[form.field].digitsOnly
      ? "1234567890".split("")
      : "1234567890QWERTYUIOPASDFGHJKLZXCVBNM".split("");
    const payload = chipKeyPayload();
    return h("section", { class: "centered chip-key" },
      h("h1", {}, t("chipKey.title")),
      h("p", { class: "lead", "data-reason": form.reason }, t("chipKey." + form.reason)),
      h("div", { class: "key-kinds", role: "tablist" },
        ["mrz", "can"].map((kind) => h("button", {
          type: "button", role: "tab", class: "button small " + (form.kind === kind ? "primary" : "secondary"), "data-kind": kind,
          "aria-selected": form.kind === kind ? "true" : "false",
          onclick: () => { form.kind = kind; form.field = kind === "can" ? "can" : "documentNumber"; app.view(); },
        }, t("chipKey.kind." + kind)))),
      h("p", { class: "hint" }, t("chipKey.hint." + form.kind)),
      h("div", { class: "key-fields" }, form.kind === "can"
        ? fieldButton("can", t("chipKey.can"))
        : [fieldButton("documentNumber", t("chipKey.documentNumber")), fieldButton("birth", t("chipKey.birth")), fieldButton("expiry", t("chipKey.expiry"))]),
      h("div", { class: "keypad" + (keys.length > 10 ? " letters" : "") },
        keys.map((key) => h("button", { type: "button", class: "key", "data-key": key, onclick: () => chipKeyType(key) }, key)),
        h("button", { type: "button", class: "key back", "data-key": "back", "aria-label": t("chipKey.back"), onclick: () => chipKeyType("back") }, "\u232B")),
      escalationBox(),
      h("div", { class: "actions" },
        button("switchToFallback", t("nfc.skip"), () => { app.journey.chipKey = null; send("switchToFallback"); }, "secondary"),
        h("button", {
          type: "button", class: "button primary", "data-action": "enterChipKey", disabled: payload ? false : true,
          onclick: () => {
            const key = chipKeyPayload();
            if (!key) return;
            // Forget it at once: the station has it now.
            app.journey.chipKey = { kind: form.kind };
            send("enterChipKey", key);
          },
        }, t("chipKey.read"))));
  }

  document.addEventListener("keydown", (event) => {
    if (screen().dataset.screen !== "chipKey" || !app.journey || !app.journey.chipKey || !app.journey.chipKey.values) return;
    if (event.key === "Backspace") chipKeyType("back");
    else if (event.key.length === 1) chipKeyType(event.key.toUpperCase());
    else if (event.key === "Enter") {
      const read = document.querySelector('#screen [data-action="enterChipKey"]');
      if (read && !read.disabled) read.click();
    } else return;
    event.preventDefault();
  });

  // MARK: Failures, fallback, staff

  function partName(part) {
    return t("part." + part);
  }

  function showFailure() {
    const journey = app.journey;
    const failure = journey.lastFailure;
    if (failure.kind === "reject") {
      show("reject", () => h("section", { class: "centered" },
        h("div", { class: "icon negative", "aria-hidden": "true" }, "!"),
        h("h1", {}, t("reject.title")),
        h("ul", { class: "reasons" }, failure.reasons.map((reason) => h("li", { "data-code": String(reason.code) },
          failure.reasons.length > 1 ? h("strong", {}, t("reject.part", { part: partName(reason.part) }) + " ") : null,
          has("reject." + reason.code) ? t("reject." + reason.code) : reason.message))),
        escalationBox(),
        h("div", { class: "actions" }, button("retake", t("reject.retake"), () => send("retake")))));
    } else {
      show("retry", () => h("section", { class: "centered" },
        h("div", { class: "icon warning", "aria-hidden": "true" }, "↻"),
        h("h1", {}, t("retry.title")),
        h("p", { class: "lead reason", "data-code": String(failure.code) }, has("retry." + failure.code) ? t("retry." + failure.code) : failure.message),
        escalationBox(),
        h("div", { class: "actions" }, button("retake", t("retry.button"), () => send("retake")))));
    }
  }

  function fallbackBox() {
    return h("div", { class: "escalation", "data-kind": "fallback" },
      h("h2", {}, t("fallback.title")),
      h("p", {}, app.journey.part === "nfc" ? "" : t("fallback.text")),
      button("switchToFallback", app.journey.part === "nfc" ? t("nfc.skip") : t("fallback.switch"), () => send("switchToFallback"), "secondary"));
  }

  function escalationBox() {
    return app.journey.fallback ? fallbackBox() : null;
  }

  function onOfferFallback(message) {
    const journey = app.journey;
    if (!journey) return;
    journey.fallback = { part: message.part, mode: message.mode };
    if (app.view) app.view();
  }

  // The part failed the configured number of tries and has no simpler mode left: a screen of
  // its own says to get a member of staff, and lets the person try once more, or stop (the
  // journey is cancelled and everything they provided is deleted).
  function onAskStaff() {
    const journey = app.journey;
    if (!journey || journey.ended) return;
    journey.askStaff = true;
    const modal = document.getElementById("modal");
    const helpOpen = modal.dataset.kind === "help";
    const from = screen().dataset.screen;
    // What "try again" goes back to: the view before, with the command that resumes it.
    const previous = app.view;
    const resume = helpOpen ? () => send("retryScan") : from === "reject" || from === "retry" ? () => send("retake") : null;
    closeModal();
    show("askStaff", () => h("section", { class: "centered ask-staff" },
      h("div", { class: "icon warning", "aria-hidden": "true" }, "?"),
      h("h1", {}, t("askStaff.title")),
      h("p", { class: "lead" }, t("askStaff.text")),
      h("p", { id: "ask-staff-stop" }, t("askStaff.stopText")),
      h("div", { class: "actions" },
        button("tryAgain", t("askStaff.tryAgain"), () => {
          journey.askStaff = false;
          if (resume) resume();
          // A retake brings its own screens; otherwise the view before comes back.
          if (!resume || helpOpen) { app.view = previous; previous(); }
        }, "secondary"),
        button("stopAndDelete", t("askStaff.stop"), () => send("cancel"), "danger"))));
  }

  // MARK: Digital Identity

  function onHandoff(handoff) {
    if (!app.journey) return;
    app.journey.handoff = handoff;
  }

  // The hand-off as a QR code the phone's camera opens (drawn by the station from the
  // address, /handoff-qr.svg), the steps for someone who never scanned one, and the address
  // as text for those who type it. Cancel is always there.
  function showHandoff(waiting) {
    const handoff = app.journey.handoff || { provider: "", url: "" };
    const provider = providerTitle(handoff.provider);
    app.journey.handoffShown = (app.journey.handoffShown || 0) + (waiting ? 0 : 1);
    const qr = "/handoff-qr.svg?n=" + app.journey.handoffShown + (token ? "&token=" + encodeURIComponent(token) : "");
    const cancel = button("cancelHandoff", t("app.cancel"), confirmCancel, "secondary");
    show(waiting ? "thirdParty" : "handoff", () => h("section", { class: "centered" },
      h("h1", {}, t("handoff.title")),
      waiting ? [spinner(), h("p", { class: "lead" }, t("handoff.waiting", { provider })), h("div", { class: "actions" }, cancel)]
        : [h("p", { class: "lead" }, t("handoff.text", { provider })),
          h("div", { class: "handoff" },
            h("img", { id: "handoff-qr", class: "handoff-qr", src: qr, alt: t("handoff.qrAlt", { provider }), width: 360, height: 360 }),
            h("ol", { class: "handoff-steps" },
              h("li", {}, t("handoff.step1")), h("li", {}, t("handoff.step2")), h("li", {}, t("handoff.step3", { provider })))),
          h("p", {}, t("handoff.typeIt")),
          h("p", { class: "handoff-url", id: "handoff-url" }, handoff.url),
          h("div", { class: "actions" }, cancel, button("handoffConfirmed", t("handoff.opened"), () => send("handoffConfirmed")))]));
  }

  function providerTitle(id) {
    for (const credential of (app.journey && app.journey.credentials) || []) {
      for (const documents of Object.values(credential.digitalDocuments || {})) {
        const found = documents.find((document) => document.id === id);
        if (found) return found.title;
      }
    }
    return id;
  }

  // MARK: End

  function onFinalizing() {
    show("finalizing", () => h("section", { class: "centered" }, spinner(), h("h1", {}, t("finalizing.title")), h("p", { class: "lead" }, t("finalizing.text"))));
  }

  function errorText(error) {
    const family = (error.code || "?").charAt(0);
    return has("error." + family) ? t("error." + family) : error.message;
  }

  function onError(error) {
    if (!app.journey) {
      // The journey could not start (the backend refused it, a reference it cannot use):
      // say what happened until the station idles again.
      if (app.station && app.station.name === "starting") showRefused(error);
      return;
    }
    if (!error.retryable) return; // `finished` follows with the error
    show("error", () => h("section", { class: "centered" },
      h("div", { class: "icon warning", "aria-hidden": "true" }, "!"),
      h("h1", {}, t("error.title")),
      h("p", { class: "lead" }, errorText(error)),
      h("p", { class: "code", id: "error-code" }, t("error.code", { code: error.code })),
      h("div", { class: "actions" }, button("retryAfterError", t("error.retry"), () => send("retryAfterError")))));
  }

  // Why a journey could not start, by the error's family: what happened and what to do.
  const REFUSAL_CAUSES = { A: "offline", E: "offline", B: "setup", C: "setup", D: "setup", F: "setup", I: "setup", J: "session", L: "reference" };

  function showRefused(error) {
    const cause = REFUSAL_CAUSES[(error.code || "?").charAt(0)] || "other";
    show("result", () => h("section", { class: "centered result failed", "data-refused": "true", "data-cause": cause },
      h("div", { class: "icon negative", "aria-hidden": "true" }, "!"),
      h("h1", {}, t("refused.title")),
      h("p", { class: "lead", id: "refused-what" }, t("refused." + cause)),
      h("p", { id: "refused-todo" }, t("refused." + cause + ".todo")),
      h("p", { class: "code staff-code", id: "error-code" }, error.code)));
  }

  function onFinished(result) {
    closeModal();
    app.lastResult = result;
    if (app.journey) app.journey.ended = true;
    const error = result.error;
    if (result.isSuccess && result.authentication === "SUCCESS") {
      show("result", () => h("section", { class: "centered result success", "data-authentication": "SUCCESS" },
        h("div", { class: "icon positive", "aria-hidden": "true" }, "✓"),
        h("h1", {}, t("result.authenticatedTitle")),
        h("p", { class: "lead" }, t("result.authenticatedText"))));
      return;
    }
    if (result.isSuccess && result.authentication === "FAILED") {
      show("result", () => h("section", { class: "centered result failed", "data-authentication": "FAILED" },
        h("div", { class: "icon negative", "aria-hidden": "true" }, "✕"),
        h("h1", {}, t("result.authenticationFailed")),
        h("p", { class: "lead" }, t("result.askStaff"))));
      return;
    }
    if (result.isSuccess) {
      show("result", () => h("section", { class: "centered result success" },
        h("div", { class: "icon positive", "aria-hidden": "true" }, "✓"),
        h("h1", {}, t("result.successTitle")),
        h("p", { class: "lead" }, t("result.successText"))));
      return;
    }
    const code = error ? error.code : "";
    // G ends by the person; an Authentication writes its codes with six characters (seed 004).
    const byPerson = {
      G000000: "result.cancelled", G000001: "result.abandoned", G000002: "result.consentRefused",
      G00000: "result.cancelled", G00001: "result.abandoned", G00002: "result.consentRefused",
    }[code];
    if (byPerson) {
      show("result", () => h("section", { class: "centered result ended" },
        h("h1", {}, t(byPerson)), h("p", { class: "lead" }, t("result.takeDocument"))));
      return;
    }
    show("result", () => h("section", { class: "centered result failed" },
      h("div", { class: "icon negative", "aria-hidden": "true" }, "!"),
      h("h1", {}, t("result.failedTitle")),
      error ? h("p", { class: "lead" }, errorText(error)) : null,
      h("p", {}, t("result.askStaff")),
      h("p", { class: "code staff-code", id: "error-code" }, code),
      h("p", {}, t("result.takeDocument"))));
  }

  function onInactivity(remaining) {
    if (!app.journey) return;
    let seconds = Math.ceil(remaining / 1000);
    clearInterval(app.inactivityTimer);
    openModal("inactivity", () => [
      h("h2", { id: "modal-title" }, t("inactivity.title")),
      h("p", { class: "lead", id: "inactivity-seconds" }, t("inactivity.text", { seconds })),
      h("div", { class: "actions" }, button("userIsPresent", t("inactivity.present"), () => { closeModal("inactivity"); send("userIsPresent"); })),
    ]);
    app.inactivityTimer = setInterval(() => {
      seconds = Math.max(0, seconds - 1);
      const text = document.getElementById("inactivity-seconds");
      if (text) text.textContent = t("inactivity.text", { seconds });
    }, 1000);
  }

  function confirmCancel() {
    openModal("cancel", () => [
      h("h2", { id: "modal-title" }, t("cancel.title")),
      h("p", {}, t("cancel.text")),
      h("div", { class: "actions" },
        button("continueJourney", t("cancel.continue"), () => closeModal("cancel"), "secondary"),
        button("confirmCancel", t("cancel.stop"), () => { closeModal("cancel"); send("cancel"); }, "danger")),
    ]);
  }

  // MARK: Theme and languages

  function applyTheme(theme) {
    if (!theme) return;
    const names = { primary: "--primary", onPrimary: "--on-primary", background: "--background", text: "--text", positive: "--positive", negative: "--negative" };
    const block = (variant) => Object.entries(names)
      .map(([key, variable]) => `${variable}: ${(variant === "dark" && theme[key].dark) || theme[key].light};`).join(" ");
    let css = `:root { ${block("light")} }`;
    if (theme.appearance === "dark") css = `:root { ${block("dark")} color-scheme: dark; }`;
    else if (theme.appearance === "system") css += ` @media (prefers-color-scheme: dark) { :root { ${block("dark")} color-scheme: dark; } }`;
    document.getElementById("theme").textContent = css;
    document.documentElement.dataset.appearance = theme.appearance;
    resetContrast();
  }

  // `high` always; `system` when the display asks for more contrast; the person may turn it
  // on (or off) with the header's toggle until the station's next screen between journeys.
  function resetContrast() {
    const configured = (app.config.theme && app.config.theme.contrast) || "system";
    const wanted = configured === "high" || (configured === "system" && matchMedia("(prefers-contrast: more)").matches);
    document.documentElement.dataset.contrast = wanted ? "high" : "normal";
  }

  function toggleContrast() {
    const root = document.documentElement;
    root.dataset.contrast = root.dataset.contrast === "high" ? "normal" : "high";
    updateChrome();
  }

  function renderLanguages() {
    const container = document.getElementById("languages");
    container.replaceChildren(...app.config.languages.map((code) => h("button", {
      type: "button", class: "language", "data-language": code, lang: code,
      onclick: () => { app.language = code; if (app.view) app.view(); else updateChrome(); },
    }, (app.translations[code] || {}).language || code.toUpperCase())));
    container.hidden = app.config.languages.length < 2;
  }

  async function fetchJSON(path) {
    const response = await fetch(path + (token ? "?token=" + encodeURIComponent(token) : ""), { cache: "no-store" });
    if (!response.ok) throw new Error(path + ": " + response.status);
    return response.json();
  }

  async function start() {
    document.getElementById("cancel").addEventListener("click", confirmCancel);
    const contrast = document.getElementById("contrast");
    if (contrast) contrast.addEventListener("click", toggleContrast);
    document.getElementById("modal").addEventListener("click", (event) => {
      if (event.target.id === "modal" && event.currentTarget.dataset.kind === "cancel") closeModal("cancel");
    });
    try {
      app.config = await fetchJSON("/config.json");
    } catch (error) {
      console.error("no configuration", error);
    }
    applyTheme(app.config.theme);
    app.language = app.config.defaultLanguage;
    await Promise.all(app.config.languages.map(async (code) => {
      try {
        app.translations[code] = await fetchJSON("/i18n/" + code + ".json");
      } catch (error) {
        console.error("no translation", code, error);
      }
    }));
    renderLanguages();
    show("connecting", () => h("section", { class: "centered" }, spinner(), h("p", { class: "lead" }, t("app.connecting"))));
    connect();
  }

  window.idkiosk = { app }; // for diagnostics in the browser's console
  start();
})();
