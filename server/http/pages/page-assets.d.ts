// The pages' client files, imported as text (scripts/page-assets.js builds them into the server).

/** A client module bundled into one minified classic script. */
declare module '*?page-script' {
  const script: string;
  export default script;
}

/** A stylesheet, checked and minified. */
declare module '*?page-style' {
  const style: string;
  export default style;
}
