// The still exporter, loaded only when a picture is saved. web/still_export.rs hands it the SVG
// file the page made, less its stylesheet: the served style.css and later.css go between `head`
// and `tail` (as `kraftscope render` embeds them). Keeps the SVG, or draws it centred on a canvas of the
// slide's size (PNG), then offers the file as a download. Resolves to the file's size in bytes.
export async function save({ head, tail, name, width, height, background }) {
  const sheets = await Promise.all(["style.css", "later.css"].map(async (name) => {
    const response = await fetch(name);
    if (!response.ok) throw new Error(`the stylesheet ${name} did not load (${response.status})`);
    return response.text();
  }));
  const css = sheets.join("");
  // Inside the file's CDATA section; the Rust side escapes this, the stylesheet never has it.
  if (css.includes("]]>")) throw new Error("the stylesheet holds ]]>, which would end its section");
  const svg = new Blob([head, css, tail], { type: "image/svg+xml" });
  const blob = width ? await png(svg, width, height, background) : svg;
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return blob.size;
}

// The drawing at the largest size that leaves a margin of a twentieth of the slide's height.
async function png(svg, width, height, background) {
  const url = URL.createObjectURL(svg);
  try {
    const image = new Image();
    image.src = url;
    await image.decode();
    const [, , boxWidth, boxHeight] = new DOMParser()
      .parseFromString(await svg.text(), "image/svg+xml")
      .documentElement.getAttribute("viewBox").split(" ").map(Number);
    const margin = height / 20;
    const scale = Math.min((width - 2 * margin) / boxWidth, (height - 2 * margin) / boxHeight);
    const [w, h] = [boxWidth * scale, boxHeight * scale];
    const canvas = document.createElement("canvas");
    canvas.width = width;
    canvas.height = height;
    const context = canvas.getContext("2d");
    context.fillStyle = background;
    context.fillRect(0, 0, width, height);
    context.drawImage(image, (width - w) / 2, (height - h) / 2, w, h);
    return await new Promise((done, failed) =>
      canvas.toBlob((blob) => (blob ? done(blob) : failed(new Error("the browser made no PNG"))), "image/png"));
  } finally {
    URL.revokeObjectURL(url);
  }
}
