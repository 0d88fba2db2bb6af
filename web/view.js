// A placeholder until the page lands: shows the traces spoor view serves.
const meta = await (await fetch("api/meta")).json();
document.getElementById("loading").textContent = "spoor view: " + meta.traces.join(", ");
