# Norsk bokmål. Kortord: trumf, stikk, bunken, ta opp, følge farge.

## Feilklasser: meldingen for en feil der årsaken ikke har egen linje nedenfor.

error-cancelled = Forespørselen ble avbrutt.
error-unknown = Noe gikk galt.
error-invalid-argument = Feltet { $field } er ugyldig.
error-invalid-request = Forespørselen er ugyldig.
error-deadline-exceeded = Forespørselen tok for lang tid.
error-not-found = Ikke funnet.
error-already-exists = Det finnes allerede.
error-permission-denied = Det har du ikke lov til.
error-resource-exhausted = For mange forespørsler; vent litt og prøv igjen.
error-failed-precondition = Det går ikke nå.
error-aborted = Forespørselen kolliderte med en annen; prøv igjen.
error-out-of-range = En verdi er utenfor det tillatte.
error-unimplemented = Det støttes ikke.
error-internal = Intern feil.
error-unavailable = Tjenesten er ikke tilgjengelig; prøv igjen om litt.
error-data-loss = Data har gått tapt.
error-unauthenticated = Du er ikke logget inn, eller økten din er avsluttet.

## Tjenestens feil, etter årsak.

error-stale-version = Spillet har gått videre (det er på versjon { $current_version }, ikke { $expected_version }).
error-version-ahead = Spillet er på versjon { $current_version }, ennå ikke på { $min_version }.
error-move-id-reused = Trekk-id-en er allerede brukt for et annet trekk.
error-request-id-reused = Forespørselens id er allerede brukt for en annen forespørsel.
error-missing-scope = Dette krever en tilgang med omfanget «{ $scope }».
error-rate-limited = For mange forespørsler av typen { $class }; prøv igjen om { $retry_after_ms } ms.
error-quota-exceeded = Du har nådd grensen på { $limit } ({ $quota }).
error-bot-games-exceeded = Disse robotene har startet { $limit } spill mot roboter det siste døgnet, så mange som er tillatt.
error-overloaded = Tjenesten er opptatt; prøv igjen om { $retry_after_ms } ms.
error-no-such-route = Adressen finnes ikke.
error-body-too-large = Forespørselen er for stor.
error-unsupported-media-type = Forespørselen må være JSON.
error-method-not-allowed = Metoden er ikke tillatt her.
error-timeout = Forespørselen tok for lang tid.
error-malformed-json = Forespørselen er ikke gyldig JSON.
error-account-disabled = Kontoen er deaktivert.
error-device-taken = Enheten er allerede i bruk.
error-name-taken = Navnet er opptatt.
error-no-password = Kontoen har ikke passord.
error-no-world-found = Ingen mulig utdeling passer med det som er vist.
error-not-a-guest = Bare en gjestekonto kan gjøre det.
error-not-a-person = Bare et menneske kan gjøre det, ikke en robot.
error-operator-only-field = Bare en operatør kan sette { $field }.
error-rated-requires-account = Et rangert parti krever en innlogget konto.
error-registration-condition = Du oppfyller ikke vilkårene for påmelding.
error-seat-requires-consent = Plassen krever spillerens samtykke.
error-spectator-sees-no-hand = En tilskuer ser ingen hånd.
error-token-expired = Økten din er utløpt; logg inn igjen.
error-token-revoked = Økten din er avsluttet; logg inn igjen.
error-too-many-streams = For mange åpne strømmer.
error-wrong-password = Feil navn eller passord.
error-no-open-seat = Det er ingen ledig plass ved bordet.
error-refresh-token-reused = Økten ble brukt et annet sted og er avsluttet; logg inn igjen.
error-seat-forfeited = Plassen din tapte på tid; klokken spiller den til partiet er slutt.

## Reglenes nei til et trekk.

error-game-over = Spillet er over.
error-awaiting-shuffle = Kortene stokkes; vent.
error-no-shuffle-awaited = Ingen stokking ventes.
error-wrong-shuffle = Stokkingen ordner ikke de ventede kortene.
error-no-such-seat = Den plassen finnes ikke ved bordet.
error-not-your-turn = Det er ikke din tur.
error-card-not-held = Du har ikke det kortet på hånden.
error-one-card-only = Med disse reglene spilles ett kort om gangen.
error-not-one-rank = Kort som spilles sammen må ha samme valør.
error-not-a-sequence = Man legger ett kort eller en rekke i én farge.
error-run-must-start-with-two = En rekke må begynne med toeren i sin farge.
error-does-not-beat = Kortet stikker ikke over det øverste kortet.
error-chance-needs-two-cards = Å sjanse krever minst to kort i bunken.
error-chance-not-allowed = Man sjanser ikke med disse reglene.
error-chance-in-phase-two = Man sjanser bare i første fase.
error-pickup-empty-table = Det er ingenting på bordet å ta opp.
error-pickup-in-phase-one = Man kan ta opp først i andre fase.
error-must-pick-up = Du må ta opp.
error-must-beat = Du kan stikke over kortet, så du kan ikke ta opp.
error-empty-hand-must-pick-up = Med tom hånd kan du bare ta opp.
error-kind-not-in-ruleset = Disse reglene har ikke noe slikt trekk.
error-not-now = Det trekket går ikke nå.
error-not-sluffable = Det kortet kan ikke kastes nå.
error-must-follow = Du har fargen som ble spilt ut, og må følge farge.
error-must-tie = Du har et kort av den høyeste valøren i stikket og må legge likt.

## Hvordan et parti endte.

end-played-out = Spilt til slutt
end-action-limit = Uavgjort: trekkgrensen ble nådd
end-resigned = Noen ga opp
end-timeout = Noens tid gikk ut
end-void = Partiet ble annullert
end-forfeit = Noen ga walkover

## Terminalklienten (skit).

skit-seated = Parti { $game }, du har plass { $seat }. Skriv nummeret på et trekk, q for å gå.
skit-left = Du forlot bordet.
skit-you = Du: { $move }
skit-table-changed = Bordet endret seg før trekket ditt; se igjen.
skit-refused = Avvist: { $why }
skit-game-over-loser = Spillet er over: { $name } er skitgubbe.
skit-game-over-drawn = Spillet er over: uavgjort ved trekkgrensen.
