// What each read of notifications does to `seenBy`, said in its help. The API's description says the record
// tracks who has seen it, but not which request adds to `seenBy`: only `clinadmin serve`'s rule is known.

/** For the reads that fetch only the list (list, watch, show --peek). */
export const MARKS_NOTHING =
  'Marks nothing seen on `clinadmin serve`: it reads only the list, and serve adds to seenBy only when one ' +
  "notification is read by its id. The real service's rule is not documented.";

/** For the reads that fetch one notification by its id (show, Enter in browse). */
export const MARKS_ONE =
  'On `clinadmin serve`, reading one notification by its id adds your account to its seenBy. The real ' +
  "service's rule is not documented. --peek reads it through the list instead, which marks nothing.";

export const ACCOUNT_NOTE =
  'Your account comes from the profile (`clinadmin login --account ID`, or `clinadmin config set account ' +
  'ID`) or CLINADMIN_ACCOUNT.';
