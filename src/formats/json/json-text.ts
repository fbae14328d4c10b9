/** A request body that is already JSON text (the importer holds records that way), sent as it is. */
export class JsonText {
  constructor(readonly text: string) {}
}
