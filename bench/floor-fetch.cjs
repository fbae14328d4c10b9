// The floor a request command is held to (issue: the plain house): Node's own fetch doing the same GET,
// then the list printed as indented JSON, as `clinadmin measures list -o json` does.
fetch(new URL('/diagnostic-measures', process.env.CLINADMIN_BASE_URL), {
  headers: { authorization: `Bearer ${process.env.CLINADMIN_TOKEN}` },
})
  .then((res) => res.json())
  .then((list) => process.stdout.write(`${JSON.stringify(list, null, 2)}\n`));
