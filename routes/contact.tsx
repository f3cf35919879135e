/** `/contact`: the legal page of `content/legal/contact.md` (`components/LegalPage.tsx`). */
import { LegalPage, legalPageHandler } from "@/components/LegalPage.tsx";

export const handler = legalPageHandler("contact");
export default LegalPage;
