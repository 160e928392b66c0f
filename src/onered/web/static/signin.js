// The sign-in page: e-mail and password; then on to the page asked for (?next=/...) or the account.
import { I, setupPage, showError } from "./common.js";
import { send } from "./account-api.js";

const $ = (x) => document.getElementById(x);

function next() {
  const asked = new URLSearchParams(location.search).get("next") || "";
  return asked.startsWith("/") && !asked.startsWith("//") ? asked : "/account";
}

async function main() {
  await setupPage();
  $("signin-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    showError($("error"), null);
    $("signin").disabled = true;
    try {
      await send("POST", "/api/account/signin", { email: $("email").value, password: $("password").value });
      location.assign(next());
    } catch (err) {
      showError($("error"), err);
      $("password").value = "";
    } finally {
      $("signin").disabled = false;
    }
  });
  document.body.dataset.ready = I.lang;
}

main();
